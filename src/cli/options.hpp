// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/whole_number.hpp"
#include "cli/command.hpp"

namespace kforecast::cli {

// Parses a command's arguments against its option table: `--name VALUE`, `--name=VALUE`,
// flags, and positionals; `--` ends options. Unknown options are usage errors that suggest the
// nearest valid one. `--help`/`-h` are accepted by every command.
Result<Invocation> parse_arguments(const Command& command, std::span<const std::string> args);

// --format's value, or "text" without one: one of `allowed` ("text", "json"), else a usage error
// that lists them.
Result<std::string> format_option(const Invocation& invocation, std::initializer_list<std::string_view> allowed);

}  // namespace kforecast::cli
