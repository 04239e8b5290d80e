// SPDX-License-Identifier: Apache-2.0
#pragma once

// An if() condition of a CMakeLists.txt worked out without running CMake (cmake_defines.hpp):
// yes, no, or not known where it needs what only a configure step knows (a file's existence, a
// compiler's version, a variable some unmodelled command computed).

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::context {

// CMake variables by name; a value holds found_define.hpp's references where part of it is not
// known.
using Variables = std::map<std::string, std::string, std::less<>>;

enum class Truth { no, yes, unknown };

// What kforecast assumes of CMake's platform variables, as the units are built on Linux:
// WIN32, MSVC, APPLE, MINGW, CYGWIN, IOS and ANDROID are false, UNIX and LINUX true.
std::optional<Truth> platform_variable(std::string_view name);

// The condition of `words` (the if()'s arguments, ${...} already expanded). `arch` is what a
// variable nothing set whose name contains ARCH reads as (cmake_defines.hpp).
Truth evaluate_condition(const std::vector<std::string>& words, const Variables& variables, std::optional<int> arch);

}  // namespace kforecast::context
