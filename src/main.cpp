// SPDX-License-Identifier: Apache-2.0
#include "cli/run.hpp"

int main(int argc, char** argv) { return kforecast::cli::run(argc, argv); }
