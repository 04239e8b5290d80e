// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <span>
#include <string>
#include <vector>

#include "cli/command.hpp"

namespace kforecast::cli {

// Parses a command's arguments against its option table: `--name VALUE`, `--name=VALUE`,
// flags, and positionals; `--` ends options. Unknown options are usage errors that suggest the
// nearest valid one. `--help`/`-h` are accepted by every command.
Result<Invocation> parse_arguments(const Command& command, std::span<const std::string> args);

}  // namespace kforecast::cli
