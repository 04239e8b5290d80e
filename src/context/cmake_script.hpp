// SPDX-License-Identifier: Apache-2.0
#pragma once

// CMake's language read into commands, without running anything: a CMakeLists.txt comes from a
// pull request, so it is untrusted. Command names are lower-cased (CMake's are case-blind);
// arguments keep their ${...} references for the reader (cmake_defines.hpp) to expand. Nested
// parentheses in an argument list (if() conditions) come as arguments "(" and ")".

#include <cstddef>
#include <expected>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::context {

struct CMakeArgument {
  enum class Kind { unquoted, quoted, bracket };
  std::string text;  // escapes of quoted arguments resolved; bracket arguments as written
  Kind kind = Kind::unquoted;
};

struct CMakeCommand {
  std::string name;  // lower case
  std::vector<CMakeArgument> arguments;
  std::size_t line = 0;  // 1-based, of the name
};

// At most this many commands are read from one file; a longer file is an error.
inline constexpr std::size_t max_cmake_commands = 50000;

// The commands of `text`, or what is wrong and on which line ("line 12: unterminated quoted
// argument").
std::expected<std::vector<CMakeCommand>, std::string> parse_cmake_script(std::string_view text);

}  // namespace kforecast::context
