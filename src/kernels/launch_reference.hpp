// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reading the kernel an expression names where a launch takes it as a value (`&k<T>`,
// `(void*)k`, `reinterpret_cast<const void*>(&ns::k<4>)`), and a call's arguments. Internal to
// launch_sites.cpp and launch_wrappers.cpp.

#include <cstddef>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "kernels/token.hpp"

namespace kforecast::kernels {

struct KernelReference {
  std::size_t name_first = 0;  // the name, qualification included: ns :: k
  std::size_t name_last = 0;
  std::optional<std::size_t> arguments_open;  // its template arguments' '<', if any
  std::size_t arguments_close = 0;            // and their '>' (or '>>')
};

// The kernel that the tokens [first, end) name and nothing else: a name with template
// arguments, behind `&`, casts and parentheses. Nothing for any other expression.
std::optional<KernelReference> kernel_reference(std::span<const Token> tokens, std::size_t first, std::size_t end);

// The arguments between the parentheses at `open` and `close`, split at their top-level commas
// (template arguments, `k<T, 4>`, are one argument): each one's first and last token.
std::vector<std::pair<std::size_t, std::size_t>> items_between(std::span<const Token> tokens, std::size_t open,
                                                               std::size_t close);

}  // namespace kforecast::kernels
