// SPDX-License-Identifier: Apache-2.0
#pragma once

// Splitting a compile database's "command" string into arguments as the POSIX shell that the
// build would have run it with does: whitespace separates words; 'single quotes' keep everything;
// "double quotes" keep everything but a backslash before $ ` " \ or a newline; an unquoted
// backslash keeps the next character. Nothing is expanded ($VAR, globs, `...`): the command is
// data here, never run.

#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace kforecast::context {

// The words of `command`, or an Error saying what is wrong ("an unterminated double quote").
Result<std::vector<std::string>> split_shell_words(std::string_view command);

}  // namespace kforecast::context
