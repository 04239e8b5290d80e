// SPDX-License-Identifier: Apache-2.0
#pragma once

// The C types kernel arguments can have, read from the parameter types the CUDA scanner
// returns ("const float* __restrict__", "__half2 *", "int64_t"). What a benchmark must know of a
// type: its size, how to fill it, and how to compare two results of it.

#include <optional>
#include <string>
#include <string_view>

namespace kforecast::bench {

enum class ScalarKind { signed_integer, unsigned_integer, floating, half, bfloat16 };

struct ElementType {
  std::string name;  // canonical spelling: "float", "__half", "float4", "int64_t"
  ScalarKind kind = ScalarKind::floating;
  int lane_bytes = 4;  // bytes of one component
  int lanes = 1;       // 4 for float4

  int bytes() const { return lane_bytes * lanes; }
  bool is_floating() const {
    return kind == ScalarKind::floating || kind == ScalarKind::half || kind == ScalarKind::bfloat16;
  }
  bool operator==(const ElementType&) const = default;
};

// The type of `spelling` with qualifiers (const, volatile, __restrict__) removed; nullopt for a
// type kforecast cannot fill (a struct, a template parameter T, a reference).
std::optional<ElementType> element_type(std::string_view spelling);

// How a parameter is passed: by value (a scalar) or as a pointer to elements (a buffer).
struct ParameterShape {
  bool pointer = false;
  std::string element;  // the pointee (or value) type without qualifiers: "float", "T"
};

// nullopt for shapes a benchmark cannot bind: pointer to pointer, reference, array.
std::optional<ParameterShape> parameter_shape(std::string_view type);

}  // namespace kforecast::bench
