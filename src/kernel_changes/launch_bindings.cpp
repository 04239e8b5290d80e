// SPDX-License-Identifier: Apache-2.0
// Template parameters bound at call sites: a launch inside a generic lambda or a function
// template runs with the template arguments its calls give,
//   auto launch_variant = [&]<uint32_t TILE, uint32_t CTA>() { k<TILE, CTA><<<grid, CTA>>>(...); };
//   launch_variant.template operator()<16, 64>();        // CTA is 64 here
//   template <int BM> void run(...) { gemm<BM><<<...>>>(...); }   run<128>(...);   // BM is 128
// so a template parameter's definition is the arguments every call passes in its place.

#include <algorithm>

#include <fmt/format.h>

#include "kernel_changes/launch_definitions.hpp"
#include "kernels/canonical_tokens.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernel_changes {

using kernels::is_keyword;
using kernels::matching_angle;
using kernels::matching_close;
using kernels::Token;
using kernels::TokenKind;

namespace {

// Tokens read back from a body's '{' for its template header; far above real signatures.
constexpr std::size_t longest_head = 512;
// Calls read per scope; far above real code, and it bounds hostile input.
constexpr std::size_t most_calls = 256;

// The '<' that opens the angle brackets closed at `close`, read backwards, or nothing.
std::optional<std::size_t> open_angle(std::span<const Token> tokens, std::size_t close) {
  std::size_t depth = 0;
  for (std::size_t back = 0; back <= close && back < longest_head; ++back) {
    const std::size_t i = close - back;
    const Token& t = tokens[i];
    if (t.is_punct(">") || t.is_punct(">>")) depth += t.text().size();
    if (t.is_punct("<") && --depth == 0) return i;
    if (t.is_punct(";") || t.is_punct("{") || t.is_punct("}")) return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::size_t> open_bracket(std::span<const Token> tokens, std::size_t close, std::string_view open,
                                        std::string_view closing) {
  int depth = 0;
  for (std::size_t back = 0; back <= close && back < longest_head; ++back) {
    const std::size_t i = close - back;
    if (tokens[i].is_punct(closing)) ++depth;
    if (tokens[i].is_punct(open) && --depth == 0) return i;
  }
  return std::nullopt;
}

// The items between the angle brackets at `open` and `close`, split at their top-level commas:
// each item's first and last token (an empty item is skipped).
std::vector<std::pair<std::size_t, std::size_t>> angle_items(std::span<const Token> tokens, std::size_t open,
                                                             std::size_t close) {
  std::vector<std::pair<std::size_t, std::size_t>> items;
  int depth = 0;
  std::size_t first = open + 1;
  for (std::size_t i = open + 1; i <= close; ++i) {
    const Token& t = tokens[i];
    if (i == close || (depth == 0 && t.is_punct(","))) {
      if (i > first) items.emplace_back(first, i - 1);
      first = i + 1;
      continue;
    }
    if (t.is_punct("(") || t.is_punct("[") || t.is_punct("{") || t.is_punct("<")) ++depth;
    if (t.is_punct(")") || t.is_punct("]") || t.is_punct("}") || t.is_punct(">")) --depth;
    if (t.is_punct(">>")) depth -= 2;
  }
  return items;
}

// A template parameter's name: the last name before its default value, or before its end
// ("uint32_t TILE = 16" gives TILE, "typename... Ts" gives Ts).
std::string_view parameter_name(std::span<const Token> tokens, std::size_t first, std::size_t last) {
  std::size_t end = last + 1;
  for (std::size_t k = first; k <= last; ++k)
    if (tokens[k].is_punct("=")) {
      end = k;
      break;
    }
  for (std::size_t k = end; k-- > first;)
    if (tokens[k].is_identifier() && !is_keyword(tokens[k].text())) return tokens[k].text();
  return {};
}

}  // namespace

void Definitions::find_template_scopes() {
  m_template_scopes.emplace();
  const std::span<const Token> tokens = m_tokens;
  for (std::size_t i = 1; i < tokens.size(); ++i) {
    if (!tokens[i].is_punct("{")) continue;
    std::size_t j = i - 1;
    while (j > 0 && (tokens[j].is_identifier("mutable") || tokens[j].is_identifier("const") ||
                     tokens[j].is_identifier("noexcept") || tokens[j].is_identifier("constexpr")))
      --j;
    if (!tokens[j].is_punct(")")) continue;
    const auto params_open = open_bracket(tokens, j, "(", ")");
    if (!params_open || *params_open == 0) continue;
    TemplateScope scope;
    scope.open = i;
    scope.close = matching_close(tokens, i);
    std::optional<std::size_t> header_open, header_close;
    const Token& before = tokens[*params_open - 1];
    if (before.is_punct(">")) {
      // [&]<uint32_t TILE, uint32_t CTA>(...) { ... }: a generic lambda, bound to a variable.
      header_close = *params_open - 1;
      header_open = open_angle(tokens, *header_close);
      if (!header_open || *header_open == 0 || !tokens[*header_open - 1].is_punct("]")) continue;
      const auto capture = open_bracket(tokens, *header_open - 1, "[", "]");
      if (!capture || *capture < 2 || !tokens[*capture - 1].is_punct("=") || !tokens[*capture - 2].is_identifier())
        continue;
      scope.lambda = true;
      scope.name = tokens[*capture - 2].text();
      const auto around = body_around(i);
      scope.search_begin = around ? around->first : 0;
      scope.search_end = around ? around->second : tokens.size();
    } else if (before.is_identifier() && !is_keyword(before.text())) {
      // template <int BM, int BK> void run(...) { ... }: the header opens the declaration.
      std::size_t start = *params_open - 1;
      while (start > 0 && *params_open - start < longest_head && !tokens[start - 1].is_punct(";") &&
             !tokens[start - 1].is_punct("{") && !tokens[start - 1].is_punct("}") &&
             tokens[start - 1].kind != TokenKind::directive_end)
        --start;
      if (!tokens[start].is_identifier("template") || !tokens[start + 1].is_punct("<")) continue;
      header_open = start + 1;
      header_close = matching_angle(tokens, start + 1);
      if (*header_close >= *params_open) continue;
      scope.name = before.text();
      scope.search_end = tokens.size();
    } else {
      continue;
    }
    for (const auto& [first, last] : angle_items(tokens, *header_open, *header_close))
      scope.parameters.push_back(parameter_name(tokens, first, last));
    if (!scope.parameters.empty()) m_template_scopes->push_back(std::move(scope));
  }
}

std::vector<std::vector<std::pair<std::size_t, std::size_t>>> Definitions::call_arguments(
    const TemplateScope& scope) const {
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> calls;
  const std::span<const Token> tokens = m_tokens;
  for (std::size_t i = scope.search_begin; i + 1 < scope.search_end && calls.size() < most_calls; ++i) {
    if (!tokens[i].is_identifier() || tokens[i].text() != scope.name) continue;
    std::size_t open = i + 1;
    if (scope.lambda) {
      // launch_variant.template operator()<16, 64>() or launch_variant.operator()<16, 64>()
      if (!tokens[open].is_punct(".")) continue;
      ++open;
      if (open < tokens.size() && tokens[open].is_identifier("template")) ++open;
      if (open + 3 >= tokens.size() || !tokens[open].is_identifier("operator") || !tokens[open + 1].is_punct("(") ||
          !tokens[open + 2].is_punct(")"))
        continue;
      open += 3;
    } else if (i > 0 && (tokens[i - 1].is_punct(".") || tokens[i - 1].is_punct("->"))) {
      continue;  // a member of that name, not the function
    }
    if (open >= tokens.size() || !tokens[open].is_punct("<")) continue;
    const std::size_t close = matching_angle(tokens, open);
    if (close + 1 >= tokens.size() || !tokens[close + 1].is_punct("(")) continue;
    calls.push_back(angle_items(tokens, open, close));
  }
  return calls;
}

const Definition* Definitions::find_template_parameter(std::string_view name, std::size_t at, std::size_t& scope_open) {
  if (!m_template_scopes) find_template_scopes();
  const TemplateScope* innermost = nullptr;
  std::size_t index = 0, position = 0;
  for (std::size_t s = 0; s < m_template_scopes->size(); ++s) {
    const TemplateScope& scope = (*m_template_scopes)[s];
    if (scope.open >= at || at >= scope.close || (innermost && scope.open < innermost->open)) continue;
    const auto found = std::ranges::find(scope.parameters, name);
    if (found == scope.parameters.end()) continue;
    innermost = &scope;
    index = s;
    position = static_cast<std::size_t>(found - scope.parameters.begin());
  }
  if (!innermost) return nullptr;
  scope_open = innermost->open;
  auto [slot, fresh] = m_bound.try_emplace({index, position});
  if (fresh) {
    Definition& bound = slot->second;
    bound.bound_by = innermost->lambda ? fmt::format("the calls of {}.template operator()", innermost->name)
                                       : fmt::format("the calls of {}", innermost->name);
    for (const auto& arguments : call_arguments(*innermost)) {
      if (!bound.text.empty()) bound.text += " ; ";
      if (position >= arguments.size()) {
        bound.text += "(default)";
        continue;
      }
      const auto [first, last] = arguments[position];
      const std::string_view written = text_of(first, last);
      bound.text += canonical_text(std::span(m_tokens).subspan(first, last + 1 - first));
      for (std::string& used : names_used(written))
        if (std::ranges::find(bound.names, used) == bound.names.end()) bound.names.push_back(std::move(used));
    }
  }
  return slot->second.text.empty() ? nullptr : &slot->second;
}

}  // namespace kforecast::kernel_changes
