// SPDX-License-Identifier: Apache-2.0
#include "bench/element_type.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace kforecast::bench {
namespace {

struct Known {
  std::string_view spelling;
  std::string_view name;
  ScalarKind kind;
  int lane_bytes;
  int lanes;
};

using enum ScalarKind;

// Spellings as they appear once qualifiers are gone and whitespace is one space.
constexpr std::array known_types{
    Known{"float", "float", floating, 4, 1},
    Known{"double", "double", floating, 8, 1},
    Known{"__half", "__half", half, 2, 1},
    Known{"half", "__half", half, 2, 1},
    Known{"__half2", "__half2", half, 2, 2},
    Known{"half2", "__half2", half, 2, 2},
    Known{"__nv_bfloat16", "__nv_bfloat16", bfloat16, 2, 1},
    Known{"nv_bfloat16", "__nv_bfloat16", bfloat16, 2, 1},
    Known{"__nv_bfloat162", "__nv_bfloat162", bfloat16, 2, 2},
    Known{"nv_bfloat162", "__nv_bfloat162", bfloat16, 2, 2},
    Known{"char", "char", signed_integer, 1, 1},
    Known{"signed char", "signed char", signed_integer, 1, 1},
    Known{"int8_t", "int8_t", signed_integer, 1, 1},
    Known{"unsigned char", "unsigned char", unsigned_integer, 1, 1},
    Known{"uint8_t", "uint8_t", unsigned_integer, 1, 1},
    Known{"short", "short", signed_integer, 2, 1},
    Known{"int16_t", "int16_t", signed_integer, 2, 1},
    Known{"unsigned short", "unsigned short", unsigned_integer, 2, 1},
    Known{"uint16_t", "uint16_t", unsigned_integer, 2, 1},
    Known{"int", "int", signed_integer, 4, 1},
    Known{"signed", "int", signed_integer, 4, 1},
    Known{"int32_t", "int32_t", signed_integer, 4, 1},
    Known{"unsigned", "unsigned int", unsigned_integer, 4, 1},
    Known{"unsigned int", "unsigned int", unsigned_integer, 4, 1},
    Known{"uint32_t", "uint32_t", unsigned_integer, 4, 1},
    Known{"long", "long", signed_integer, 8, 1},
    Known{"long long", "long long", signed_integer, 8, 1},
    Known{"int64_t", "int64_t", signed_integer, 8, 1},
    Known{"ptrdiff_t", "ptrdiff_t", signed_integer, 8, 1},
    Known{"unsigned long", "unsigned long", unsigned_integer, 8, 1},
    Known{"unsigned long long", "unsigned long long", unsigned_integer, 8, 1},
    Known{"uint64_t", "uint64_t", unsigned_integer, 8, 1},
    Known{"size_t", "size_t", unsigned_integer, 8, 1},
    Known{"bool", "bool", unsigned_integer, 1, 1},
};

// CUDA's vector types: float2, int4, uchar4, double2, ...
struct VectorBase {
  std::string_view prefix;
  std::string_view scalar;
};
constexpr std::array vector_bases{
    VectorBase{"float", "float"},
    VectorBase{"double", "double"},
    VectorBase{"char", "signed char"},
    VectorBase{"uchar", "unsigned char"},
    VectorBase{"short", "short"},
    VectorBase{"ushort", "unsigned short"},
    VectorBase{"int", "int"},
    VectorBase{"uint", "unsigned int"},
    VectorBase{"longlong", "long long"},
    VectorBase{"ulonglong", "unsigned long long"},
};

bool is_qualifier(std::string_view word) {
  return word == "const" || word == "volatile" || word == "__restrict__" || word == "__restrict" ||
         word == "restrict" || word == "__grid_constant__" || word == "std" || word == "::";
}

// Words and the punctuation * & [ ] of a type, "std::" and qualifiers dropped.
std::vector<std::string> words_of(std::string_view type) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < type.size()) {
    const char c = type[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t end = i;
      while (end < type.size() && (std::isalnum(static_cast<unsigned char>(type[end])) || type[end] == '_')) ++end;
      words.emplace_back(type.substr(i, end - i));
      i = end;
    } else if (c == ':' && i + 1 < type.size() && type[i + 1] == ':') {
      words.emplace_back("::");
      i += 2;
    } else {
      words.emplace_back(1, c);
      ++i;
    }
  }
  std::erase_if(words, [](const std::string& word) { return is_qualifier(word); });
  return words;
}

}  // namespace

std::optional<ElementType> element_type(std::string_view spelling) {
  std::string joined;
  for (const auto& word : words_of(spelling)) joined += (joined.empty() ? "" : " ") + word;
  for (const auto& known : known_types)
    if (known.spelling == joined)
      return ElementType{std::string(known.name), known.kind, known.lane_bytes, known.lanes};
  for (const auto& base : vector_bases) {
    if (!joined.starts_with(base.prefix) || joined.size() != base.prefix.size() + 1) continue;
    const char lanes = joined.back();
    if (lanes < '1' || lanes > '4') continue;
    auto scalar = element_type(base.scalar);
    scalar->name = joined;
    scalar->lanes = lanes - '0';
    return scalar;
  }
  return std::nullopt;
}

std::optional<ParameterShape> parameter_shape(std::string_view type) {
  auto words = words_of(type);
  const auto stars = std::ranges::count(words, std::string("*"));
  if (stars > 1 || std::ranges::count(words, std::string("&")) > 0 || std::ranges::count(words, std::string("[")) > 0)
    return std::nullopt;
  std::erase(words, std::string("*"));
  ParameterShape shape{stars == 1, {}};
  for (const auto& word : words) shape.element += (shape.element.empty() ? "" : " ") + word;
  if (shape.element.empty()) return std::nullopt;
  return shape;
}

}  // namespace kforecast::bench
