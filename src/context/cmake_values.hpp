// SPDX-License-Identifier: Apache-2.0
#pragma once

// CMake values as the build-file reader (cmake_defines.hpp) handles them: lists, flags strings,
// and the variable a command the reader does not model computes, which is then not known.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::context {

// The items of a CMake list, ';' apart ("\\;" a literal ';'), a generator expression kept whole
// with the ';' inside it; empty items dropped.
std::vector<std::string> list_items(std::string_view value);

std::string join_list(const std::vector<std::string>& items);

// The words of a flags string ("-O3 -DX=1", or a list of them).
std::vector<std::string> flag_words(std::string_view value);

// The variable `command` (lower case) sets from `words` (its expanded arguments) when the reader
// does not work the value out: list(GET l 0 OUT) gives OUT, list(FILTER l ...) l,
// string(REPLACE a b OUT ...) OUT, math(EXPR OUT ...) OUT, find_library(OUT ...) OUT, ...;
// nullopt for a command that sets none.
std::optional<std::string> computed_variable(const std::string& command, const std::vector<std::string>& words);

}  // namespace kforecast::context
