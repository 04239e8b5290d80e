// SPDX-License-Identifier: Apache-2.0
#pragma once
namespace kforecast::cli {
// The whole program: parses argv, runs the subcommand, returns the process exit code.
int run(int argc, char** argv);
}
