// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which compiler flags a build file states that kforecast takes into an inferred context.

#include <string_view>

namespace kforecast::context {

// Whether a build file's compiler flag is one kforecast takes into an inferred context: it changes
// what device code means (--extended-lambda, --expt-relaxed-constexpr, -std=, -rdc=) or the
// machine code it compiles to (--use_fast_math, -ftz=, -prec-div=, -prec-sqrt=, -fmad=).
// Warnings, host options and the rest stay out; what is taken still passes the allow-list
// (flag_filter.hpp).
bool code_flag(std::string_view word);

}  // namespace kforecast::context
