// SPDX-License-Identifier: Apache-2.0
#pragma once

// When a double literal in float code costs FP64 work, as NVVM compiles it (checked against
// nvcc -O3's PTX for every form below). A double constant leaves no FP64 instruction where
//   - its whole constant expression is assigned, initialises, is returned or is an element of a
//     braced initialiser (float sum = 0.0; constexpr float k = 1.0 / 3.0);
//   - it is a whole argument of a call or a constructor, or is cast, to a type that is not a
//     half type (accscalar_t(1.0), __float2half(0.0), glm::mat3(a, 0.0, b), (float)0.5): the
//     conversion is folded. To half or bfloat16 (__half(0.5), make_bfloat162(127., x), a __h*
//     intrinsic, a template type parameter that may be half) it is a run-time cvt from FP64, and
//     the math functions and min/max pick their double overload;
//   - it is exactly representable as a float and is one operand of a single + - * / whose result
//     is narrowed straight to float, or of a comparison (float s = 1.0 / sqrtf(h);
//     x[i] = x[i] * 0.5; x[i] *= 0.5; if (v > 0.5)): LLVM evaluates these in float, since the double result
//     rounds to the same float. Not so for inexact constants (0.1, 1e-3) or chains (x * 0.5 + 1.0);
//   - it is a whole branch of a ?: that is narrowed straight to float (out[i] = m ? v : 0.0).

#include <cstddef>
#include <span>

#include "lint/matchers.hpp"

namespace kforecast::lint {

// A decimal floating literal without an f (float) or h suffix: a double.
bool is_double_literal(const Token& token);

// The first case above alone: the literal's whole constant expression is converted where it is
// assigned, initialised, returned or listed. What the math-function rule asks of its arguments.
bool converted_at_compile_time(const SourceView& view, std::span<const Token> tokens, std::size_t at);

// Whether the double literal at `at` of `tokens` leaves no FP64 work, by every case above.
// `unit` is the function the tokens are in (its parameters, template parameters and variables
// tell a float destination); without one only the context-free cases apply.
bool folded_to_float(const SourceView& view, std::span<const Token> tokens, std::size_t at,
                     const FunctionUnderLint* unit);

}  // namespace kforecast::lint
