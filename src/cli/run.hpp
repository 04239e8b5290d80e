// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <span>
#include <string>

#include "cli/command.hpp"

namespace kforecast::cli {

// The whole program: parses argv, runs the subcommand, returns the process exit code.
int run(int argc, char** argv);

// The same over given arguments (without argv[0]) and streams; errors are printed to
// context.err as "kforecast: error: ...". Tests drive the command line through this.
ExitCode run(std::span<const std::string> args, Context& context);

}  // namespace kforecast::cli
