// SPDX-License-Identifier: Apache-2.0
// Matchers over declarations, loops and launches: per-thread arrays indexed dynamically (they
// live in local memory), pointer parameters without __restrict__, and block sizes that leave a
// warp partly empty.

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

#include "lint/matchers.hpp"

namespace kforecast::lint {
namespace {

// Macro-style constants (TILE, BLOCK_SIZE, N_2) are compile-time values by convention.
bool looks_constant(std::string_view name) {
  return std::ranges::none_of(name, [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; });
}

bool contains_word(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    const bool left = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
    const std::size_t after = at + word.size();
    const bool right =
        after >= text.size() || !(std::isalnum(static_cast<unsigned char>(text[after])) || text[after] == '_');
    if (left && right) return true;
  }
  return false;
}

std::optional<std::int64_t> value_of(const SourceView& view, const Token& token) {
  if (auto literal = integer_literal(token)) return literal;
  return token.is_identifier() ? view.macro_number(token.text()) : std::nullopt;
}

}  // namespace

void match_local_array_dynamic_index(const Rule&, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  const auto tokens = unit.body;
  const auto& analysis = unit.analysis;
  // Per-thread arrays: "TYPE NAME [ DIM ]" in a statement without a memory-space qualifier.
  std::vector<std::string_view> arrays;
  std::vector<std::size_t> declared_at;
  std::size_t statement = 0;
  for (std::size_t j = 0; j + 3 < tokens.size(); ++j) {
    if (tokens[j].is_punct(";") || tokens[j].is_punct("{") || tokens[j].is_punct("}")) statement = j + 1;
    if (j == 0 || !tokens[j].is_identifier() || !tokens[j - 1].is_identifier() || !tokens[j + 1].is_punct("["))
      continue;
    if (tokens[j - 1].is_identifier("return") || tokens[j - 1].is_identifier("case")) continue;
    bool qualified = false;
    for (std::size_t k = statement; k < j; ++k)
      for (std::string_view word : {"__shared__", "__constant__", "static", "extern"})
        if (tokens[k].is_identifier(word)) qualified = true;
    const std::size_t close = closing(tokens, j + 1);
    if (qualified || close != j + 3 || !value_of(unit.view, tokens[j + 2])) continue;
    arrays.push_back(tokens[j].text());
    declared_at.push_back(j);
  }
  if (arrays.empty()) return;

  // Loops whose trip count is a compile-time constant: their counters index arrays statically
  // once the loop is unrolled, so they do not count as dynamic.
  struct Counter {
    std::string_view name;
    std::size_t begin, end;
  };
  std::vector<Counter> counters;
  for (const auto& region : analysis.regions()) {
    if (region.kind != ControlRegion::Kind::loop || region.header_begin == region.header_end) continue;
    const auto header = tokens.subspan(region.header_begin, region.header_end - region.header_begin);
    const auto first = std::ranges::find_if(header, [](const Token& t) { return t.is_punct(";"); });
    if (first == header.end()) continue;
    const auto second = std::find_if(first + 1, header.end(), [](const Token& t) { return t.is_punct(";"); });
    std::string_view counter;
    for (auto it = header.begin(); it != first; ++it)
      if (it->is_identifier() && it + 1 != first && (it + 1)->is_punct("=")) counter = it->text();
    const bool constant_trip = !counter.empty() && std::all_of(first + 1, second, [&](const Token& t) {
      return !t.is_identifier() || t.text() == counter || looks_constant(t.text()) || t.text() == "sizeof" ||
             unit.view.macro_number(t.text()) || contains_word(unit.function.template_parameters, t.text());
    });
    if (constant_trip) counters.push_back({counter, region.begin, region.end});
  }
  const auto static_index_word = [&](std::string_view word, std::size_t at) {
    if (looks_constant(word) || unit.view.macro_number(word) || contains_word(unit.function.template_parameters, word))
      return true;
    return std::ranges::any_of(counters,
                               [&](const Counter& c) { return c.name == word && at >= c.begin && at < c.end; });
  };
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    const auto found = std::ranges::find(arrays, tokens[i].text());
    if (!tokens[i].is_identifier() || !tokens[i + 1].is_punct("[") || found == arrays.end()) continue;
    if (i == declared_at[static_cast<std::size_t>(found - arrays.begin())]) continue;
    const std::size_t close = closing(tokens, i + 1);
    for (std::size_t k = i + 2; k < close; ++k) {
      if (!tokens[k].is_identifier() || (k > 0 && tokens[k - 1].is_punct("."))) continue;
      if (static_index_word(tokens[k].text(), i)) continue;
      out.push_back({unit.view.offset(tokens[i]), fmt::format("{}[{}]", tokens[i].text(), tokens[k].text())});
      break;
    }
  }
}

void match_pointer_parameters_without_restrict(const Rule& rule, const FunctionUnderLint& unit,
                                               std::vector<Finding>& out) {
  std::vector<std::string> pointers, unrestricted;
  for (const auto& parameter : unit.function.parameters) {
    if (parameter.type.find('*') == std::string::npos) continue;
    pointers.push_back(parameter.name);
    if (!contains_word(parameter.type, "__restrict__") && !contains_word(parameter.type, "__restrict"))
      unrestricted.push_back(parameter.name.empty() ? "(unnamed)" : parameter.name);
  }
  if (static_cast<std::int64_t>(pointers.size()) < rule.match.min_pointers || unrestricted.empty()) return;
  std::size_t at = unit.function.signature.begin;
  for (const auto& token : unit.signature)
    if (token.is_identifier(unit.function.name)) {
      at = unit.view.offset(token);
      break;
    }
  out.push_back({at, fmt::format("{}", fmt::join(unrestricted, ", ")), true});
}

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
    if (threads && *threads % rule.match.multiple != 0)
      out.push_back({view.offset(tokens[grid_end + 1]), fmt::format("{} threads per block", *threads)});
  }
}

}  // namespace kforecast::lint
