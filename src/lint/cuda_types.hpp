// SPDX-License-Identifier: Apache-2.0
#pragma once

// What CUDA's types and functions do with a double constant handed to them: the half and
// bfloat16 types and the __h* intrinsics convert it at run time (cvt from FP64), the math
// functions and min/max pick their double overload, the float functions take it as a float.

#include <string_view>

#include "lint/matchers.hpp"

namespace kforecast::lint {

// Types and functions that take half or bfloat16.
bool half_taking(std::string_view name);
// Functions whose double overload a double argument picks.
bool double_overloaded(std::string_view name);
// Functions that take float.
bool float_taking(std::string_view name);
// Whether converting a double constant to `type` is folded at compile time: not for half types,
// nor for a template type parameter of `unit` that may be half (T, scalar_t; an accumulation
// type such as accscalar_t or opmath_t is float or double for every input).
bool folded_cast_to(std::string_view type, const FunctionUnderLint* unit);

}  // namespace kforecast::lint
