// SPDX-License-Identifier: Apache-2.0
#include "kernels/launch_reference.hpp"

#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

// Nesting of parentheses and casts read around one kernel reference: far above real code.
constexpr int deepest_reference = 8;

bool is_cast_keyword(const Token& t) {
  return t.is_identifier("reinterpret_cast") || t.is_identifier("static_cast") || t.is_identifier("const_cast");
}

std::optional<KernelReference> reference(std::span<const Token> tokens, std::size_t i, std::size_t end, int depth) {
  if (depth > deepest_reference) return std::nullopt;
  while (i < end) {
    const Token& t = tokens[i];
    if (t.is_punct("&")) {
      ++i;
    } else if (is_cast_keyword(t) && i + 1 < end && tokens[i + 1].is_punct("<")) {
      const std::size_t close = matching_angle(tokens.first(end), i + 1);
      if (close + 1 >= end || !tokens[close + 1].is_punct("(")) return std::nullopt;
      const std::size_t paren = matching_close(tokens.first(end), close + 1);
      if (paren + 1 != end) return std::nullopt;
      return reference(tokens, close + 2, paren, depth + 1);
    } else if (t.is_punct("(")) {
      const std::size_t close = matching_close(tokens.first(end), i);
      if (close >= end) return std::nullopt;
      if (close + 1 == end) return reference(tokens, i + 1, close, depth + 1);  // (k)
      i = close + 1;                                                            // (void*) k
    } else {
      break;
    }
  }
  if (i < end && tokens[i].is_punct("::")) ++i;
  if (i >= end || !tokens[i].is_identifier() || is_keyword(tokens[i].text())) return std::nullopt;
  KernelReference found{i, i, std::nullopt, 0};
  while (found.name_last + 2 < end && tokens[found.name_last + 1].is_punct("::") &&
         tokens[found.name_last + 2].is_identifier())
    found.name_last += 2;
  std::size_t next = found.name_last + 1;
  if (next < end && tokens[next].is_punct("<")) {
    const std::size_t close = matching_angle(tokens.first(end), next);
    if (close >= end) return std::nullopt;
    found.arguments_open = next;
    found.arguments_close = close;
    next = close + 1;
  }
  if (next != end) return std::nullopt;
  return found;
}

}  // namespace

std::optional<KernelReference> kernel_reference(std::span<const Token> tokens, std::size_t first, std::size_t end) {
  if (first >= end || end > tokens.size()) return std::nullopt;
  return reference(tokens, first, end, 0);
}

std::vector<std::pair<std::size_t, std::size_t>> items_between(std::span<const Token> tokens, std::size_t open,
                                                               std::size_t close) {
  std::vector<std::pair<std::size_t, std::size_t>> items;
  int depth = 0;
  std::size_t first = open + 1;
  for (std::size_t i = open + 1; i < close; ++i) {
    const Token& t = tokens[i];
    if (t.is_punct("<") && i > first && tokens[i - 1].is_identifier()) {
      const std::size_t angle = matching_angle(tokens.first(close), i, 64);
      if (angle < close) {
        i = angle;
        continue;
      }
    }
    if (t.is_punct("(") || t.is_punct("[") || t.is_punct("{")) ++depth;
    if (t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) --depth;
    if (depth == 0 && t.is_punct(",")) {
      if (i > first) items.emplace_back(first, i - 1);
      first = i + 1;
    }
  }
  if (close > first) items.emplace_back(first, close - 1);
  return items;
}

}  // namespace kforecast::kernels
