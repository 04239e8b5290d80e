// SPDX-License-Identifier: Apache-2.0
#pragma once

// The value of a preprocessor condition (#if, #elif) as a CUDA build sees it, where this file
// settles it: conditionals.hpp says which names are settled and how. Internal to conditionals.

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>

#include "kernels/token.hpp"

namespace kforecast::lint {

// A macro this file defines, as far as the conditions after it can tell.
struct MacroState {
  bool known = true;  // false: defined in a branch that may not be compiled, or defined twice differently
  bool function_like = false;
  std::string body;
};

using Macros = std::map<std::string, MacroState, std::less<>>;

// The condition's value; nullopt where it depends on something this file does not say.
std::optional<std::int64_t> condition_value(std::span<const kernels::Token> condition, const Macros& macros);

}  // namespace kforecast::lint
