// SPDX-License-Identifier: Apache-2.0
// Matchers over launches: block sizes that leave a warp partly empty.

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

#include "lint/matchers.hpp"

namespace kforecast::lint {
namespace {

std::optional<std::int64_t> value_of(const SourceView& view, const Token& token) {
  if (auto literal = integer_literal(token)) return literal;
  return token.is_identifier() ? view.macro_number(token.text()) : std::nullopt;
}

}  // namespace

void match_launch_bounds_block_size(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  const auto tokens = unit.signature;
  for (std::size_t i = 0; i + 2 < tokens.size(); ++i) {
    if (!tokens[i].is_identifier("__launch_bounds__") || !tokens[i + 1].is_punct("(")) continue;
    const std::size_t end = expression_end(tokens, i + 2);
    if (end == i + 2 || end > tokens.size()) continue;
    const std::size_t from = unit.view.offset(tokens[i + 2]);
    const std::size_t to = unit.view.offset(tokens[end - 1]) + tokens[end - 1].text().size();
    const std::string_view written = unit.view.text().substr(from, to - from);
    const auto threads = unit.view.constant_value(written);
    if (!threads || *threads % rule.match.multiple == 0) continue;
    const std::string value = std::to_string(*threads);
    out.push_back({unit.view.offset(tokens[i]), written == value
                                                    ? fmt::format("__launch_bounds__({})", value)
                                                    : fmt::format("__launch_bounds__({}) is {} threads", written, value)});
  }
}

void match_launch_block_size(const Rule& rule, const SourceView& view, std::vector<Finding>& out) {
  const auto tokens = view.code();
  // The product of a block given as N, dim3(X, Y, Z), or a name declared as either before.
  const auto block_threads = [&](std::size_t begin, std::size_t end) -> std::optional<std::int64_t> {
    if (end == begin + 1) {
      if (auto value = value_of(view, tokens[begin])) return value;
      if (!tokens[begin].is_identifier()) return std::nullopt;
      for (std::size_t k = begin; k-- > 1;) {
        if (!tokens[k].is_identifier(tokens[begin].text())) continue;
        if (tokens[k - 1].is_identifier("dim3") && k + 1 < begin &&
            (tokens[k + 1].is_punct("(") || tokens[k + 1].is_punct("{"))) {
          begin = k + 1, end = closing(tokens, k + 1) + 1;
          break;
        }
        if (k + 3 < begin && tokens[k + 1].is_punct("=") && tokens[k + 3].is_punct(";"))
          return value_of(view, tokens[k + 2]);
        return std::nullopt;
      }
      if (end == begin + 1) return std::nullopt;
    } else if (tokens[begin].is_identifier("dim3")) {
      ++begin;
    }
    if (begin >= end || !(tokens[begin].is_punct("(") || tokens[begin].is_punct("{"))) return std::nullopt;
    std::int64_t product = 1;
    for (std::size_t k = begin + 1; k + 1 < end; k += 2) {
      auto value = value_of(view, tokens[k]);
      if (!value || !(tokens[k + 1].is_punct(",") || k + 2 == end)) return std::nullopt;
      product *= *value;
    }
    return product;
  };
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    if (!tokens[i].is_punct("<<") || !tokens[i + 1].is_punct("<")) continue;
    const std::size_t grid_end = expression_end(tokens, i + 2);
    if (grid_end >= tokens.size() || !tokens[grid_end].is_punct(",")) continue;
    std::size_t block_end = grid_end + 1;
    int depth = 0;
    for (; block_end < tokens.size(); ++block_end) {
      const Token& t = tokens[block_end];
      if (t.is_punct("(") || t.is_punct("{")) ++depth;
      if (t.is_punct(")") || t.is_punct("}")) --depth;
      if (depth == 0 && (t.is_punct(",") || t.is_punct(">>") || t.is_punct(">>>") || t.is_punct(";"))) break;
    }
    if (block_end >= tokens.size() || block_end == grid_end + 1) continue;
    const auto threads = block_threads(grid_end + 1, block_end);
    // A block of one thread is a deliberate serial kernel (set-up, a graph's control node): no
    // warp to fill.
    if (threads && *threads > 1 && *threads % rule.match.multiple != 0)
      out.push_back({view.offset(tokens[grid_end + 1]), fmt::format("{} threads per block", *threads)});
  }
}

bool has_word(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool left = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    const std::size_t after = at + word.size();
    const bool right =
        after >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[after])) || text[after] == '_');
    if (left && right) return true;
  }
  return false;
}

}  // namespace kforecast::lint
