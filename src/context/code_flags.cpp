// SPDX-License-Identifier: Apache-2.0
#include "context/code_flags.hpp"

#include <algorithm>
#include <array>

namespace kforecast::context {

bool code_flag(std::string_view word) {
  static constexpr std::array<std::string_view, 10> exact{
      "--extended-lambda",       "-extended-lambda", "--expt-extended-lambda", "-expt-extended-lambda",
      "--expt-relaxed-constexpr", "-expt-relaxed-constexpr", "--use_fast_math", "-use_fast_math",
      "--use-fast-math",         "-use-fast-math"};
  static constexpr std::array<std::string_view, 12> prefixes{
      "-std=",       "--std=",        "-ftz=",  "--ftz=",  "-prec-div=", "--prec-div=", "-prec-sqrt=",
      "--prec-sqrt=", "-fmad=",       "--fmad=", "-rdc=",  "--relocatable-device-code="};
  if (std::ranges::find(exact, word) != exact.end()) return true;
  return std::ranges::any_of(prefixes, [&](std::string_view prefix) { return word.starts_with(prefix); });
}

}  // namespace kforecast::context
