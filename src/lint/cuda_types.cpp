// SPDX-License-Identifier: Apache-2.0
#include "lint/cuda_types.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>

namespace kforecast::lint {
namespace {

// Template type parameters named like an accumulation type (PyTorch's accscalar_t, opmath_t, a
// compute_t): float (or double) for every input type, never half.
bool accumulation_name(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("acc") != std::string::npos || lower.find("opmath") != std::string::npos ||
         lower.find("compute") != std::string::npos;
}

bool template_type_parameter(const FunctionUnderLint* unit, std::string_view name) {
  if (unit == nullptr) return false;
  const std::string_view header = unit->function.template_parameters;
  for (std::string_view keyword : {"typename ", "class "})
    for (std::size_t at = header.find(keyword); at != std::string_view::npos; at = header.find(keyword, at + 1)) {
      std::size_t begin = at + keyword.size();
      while (begin < header.size() && header[begin] == ' ') ++begin;
      std::size_t end = begin;
      while (end < header.size() && (std::isalnum(static_cast<unsigned char>(header[end])) || header[end] == '_'))
        ++end;
      if (header.substr(begin, end - begin) == name) return true;
    }
  return false;
}

}  // namespace

// A double converted to these goes through a run-time cvt from FP64 (__double2half is inline
// assembly, never folded).
bool half_taking(std::string_view name) {
  constexpr std::array<std::string_view, 18> names{"half",           "__half",
                                                   "half2",          "__half2",
                                                   "nv_bfloat16",    "__nv_bfloat16",
                                                   "nv_bfloat162",   "__nv_bfloat162",
                                                   "bfloat16",       "__bfloat16",
                                                   "make_half2",     "make_bfloat162",
                                                   "__halves2half2", "__halves2bfloat162",
                                                   "__double2half",  "__double2bfloat16",
                                                   "__nv_half",      "half_t"};
  if (std::ranges::find(names, name) != names.end()) return true;
  return name.starts_with("__h") && !name.starts_with("__half2float");  // __hmul, __hadd, __hfma, ...
}

// Functions whose double overload a double argument picks (CUDA's math headers overload them).
bool double_overloaded(std::string_view name) {
  constexpr std::array<std::string_view, 38> names{
      "sqrt", "rsqrt", "cbrt", "exp",  "exp2", "exp10", "expm1", "log",  "log2", "log10", "log1p",    "pow",  "sin",
      "cos",  "tan",   "asin", "acos", "atan", "atan2", "sinh",  "cosh", "tanh", "erf",   "erfc",     "fabs", "floor",
      "ceil", "round", "fmod", "fmin", "fmax", "hypot", "min",   "max",  "abs",  "trunc", "copysign", "fma"};
  return std::ranges::find(names, name) != names.end();
}

// Functions that take float: an argument narrowed to one is evaluated as the narrowing allows.
bool float_taking(std::string_view name) {
  if (name.starts_with("__float2") || name.starts_with("make_float") || name == "__fdividef" || name == "__expf" ||
      name == "__logf" || name == "__sinf" || name == "__cosf" || name == "__powf")
    return true;
  return name.size() > 1 && name.back() == 'f' && double_overloaded(name.substr(0, name.size() - 1));
}

// Whether converting a double constant to `type` is folded: not for half types, nor for a
// template type parameter that may be half (T, scalar_t; an accumulation type is not).
bool folded_cast_to(std::string_view type, const FunctionUnderLint* unit) {
  if (half_taking(type)) return false;
  if (template_type_parameter(unit, type)) return accumulation_name(type);
  return true;
}

}  // namespace kforecast::lint
