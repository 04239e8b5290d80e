// SPDX-License-Identifier: Apache-2.0
#pragma once

// Integer expressions: the size expressions of launch specs ("ceil_div(N, 64)", "M * K + 16")
// and lint's launch bounds ("8 * WARP_SIZE"). 64-bit integers, + - * / %, unary minus,
// parentheses, ceil_div(a, b), min(a, b, ...), max(a, b, ...) and the names of variables. The text comes from a repository's config or source comments, so it
// is untrusted: overflow, division by zero, unknown names and nesting deeper than 64 are errors
// that quote the expression, never undefined behaviour.

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace kforecast {

using IntegerVariables = std::map<std::string, std::int64_t, std::less<>>;

// The value of `text` with `variables` bound. Errors read "expression 'N / 0': division by zero".
Result<std::int64_t> evaluate_integer_expression(std::string_view text, const IntegerVariables& variables);

}  // namespace kforecast
