// SPDX-License-Identifier: Apache-2.0
#pragma once

// Launch specs' size expressions are base's integer expressions (lint evaluates launch bounds
// with the same evaluator); these names keep bench's spelling.

#include "base/integer_expression.hpp"

namespace kforecast::bench {

using SizeVariables = IntegerVariables;

inline Result<std::int64_t> evaluate(std::string_view text, const SizeVariables& variables) {
  return evaluate_integer_expression(text, variables);
}

}  // namespace kforecast::bench
