// SPDX-License-Identifier: Apache-2.0
#include "cli/run.hpp"
namespace kforecast::cli {
int run(int, char**) { return 0; }
}
