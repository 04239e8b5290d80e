// SPDX-License-Identifier: Apache-2.0
#include "lint/source_view.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

#include "base/integer_expression.hpp"

namespace kforecast::lint {

SourceView::SourceView(std::string_view text)
    : m_text(text), m_live(cuda_live_code(text)), m_code(m_live.code), m_scanned(kernels::scan_cuda_source(text)) {
  for (const auto& macro : m_scanned.macros)
    if (live(macro.span.begin)) m_macros.push_back(&macro);
  m_line_starts.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') m_line_starts.push_back(i + 1);
}

std::span<const Token> SourceView::tokens_in(const kernels::Span& span) const {
  const auto by_offset = [&](const Token& token) { return offset(token); };
  auto first = std::ranges::lower_bound(m_code, span.begin, {}, by_offset);
  auto last = std::ranges::lower_bound(first, m_code.end(), span.end, {}, by_offset);
  return {first, last};
}

std::uint32_t SourceView::line_of(std::size_t at) const {
  auto it = std::ranges::upper_bound(m_line_starts, at);
  return static_cast<std::uint32_t>(it - m_line_starts.begin());
}

std::uint32_t SourceView::column_of(std::size_t at) const {
  const std::uint32_t line = line_of(at);
  return static_cast<std::uint32_t>(at - m_line_starts[line - 1] + 1);
}

std::string_view SourceView::line_text(std::uint32_t line) const {
  if (line == 0 || line > m_line_starts.size()) return {};
  const std::size_t begin = m_line_starts[line - 1];
  std::size_t end = line < m_line_starts.size() ? m_line_starts[line] - 1 : m_text.size();
  if (end > begin && m_text[end - 1] == '\r') --end;
  return m_text.substr(begin, end - begin);
}

std::optional<std::int64_t> SourceView::macro_number(std::string_view name) const { return named_constant(name, 0); }

std::optional<std::int64_t> SourceView::constant_value(std::string_view expression) const {
  return constant_value(expression, 0);
}

// Names resolve through macros and constants that may use other names: a chain deeper than this
// is not a real file's constant, and a macro defined through itself must not recurse forever.
constexpr int max_constant_depth = 8;

std::optional<std::int64_t> SourceView::constant_value(std::string_view expression, int depth) const {
  if (depth > max_constant_depth) return std::nullopt;
  const auto word_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  // C spellings the evaluator does not read (256u, 0x100, 1'024) become plain decimals, and each
  // name is bound to its value.
  std::string normalised;
  IntegerVariables names;
  for (std::size_t i = 0; i < expression.size();) {
    const char c = expression[i];
    if (!word_char(c)) {
      normalised.push_back(c);
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < expression.size() && (word_char(expression[end]) || expression[end] == '\'')) ++end;
    const std::string_view word = expression.substr(i, end - i);
    i = end;
    if (std::isdigit(static_cast<unsigned char>(word.front())) != 0) {
      auto value = integer_literal(Token{word, 0, kernels::TokenKind::number});
      if (!value) return std::nullopt;
      normalised += std::to_string(*value);
      continue;
    }
    normalised += word;
    std::size_t next = end;
    while (next < expression.size() && expression[next] == ' ') ++next;
    if (next < expression.size() && expression[next] == '(') continue;  // min, max, ceil_div
    if (names.contains(word)) continue;
    auto value = named_constant(word, depth + 1);
    if (!value) return std::nullopt;
    names.emplace(std::string(word), *value);
  }
  auto value = evaluate_integer_expression(normalised, names);
  return value ? std::optional(*value) : std::nullopt;
}

std::optional<std::int64_t> SourceView::named_constant(std::string_view name, int depth) const {
  if (depth > max_constant_depth) return std::nullopt;
  const kernels::Macro* found = nullptr;
  for (const kernels::Macro* macro : m_macros) {
    if (macro->name != name) continue;
    if (macro->function_like || (found != nullptr && found->body != macro->body)) return std::nullopt;
    found = macro;
  }
  if (found != nullptr) return constant_value(found->body, depth);
  // NAME = VALUE in a statement that says const or constexpr.
  const std::span<const Token> tokens = m_code;
  for (std::size_t k = 1; k + 2 < tokens.size(); ++k) {
    if (!tokens[k].is_identifier(name) || !tokens[k + 1].is_punct("=")) continue;
    bool constant = false;
    for (std::size_t j = k; j > 0 && tokens[j - 1].is_identifier(); --j)
      if (tokens[j - 1].is_identifier("constexpr") || tokens[j - 1].is_identifier("const")) constant = true;
    if (!constant) continue;
    std::size_t end = k + 2;
    while (end < tokens.size() && !tokens[end].is_punct(";") && !tokens[end].is_punct(",")) ++end;
    if (end == tokens.size() || end == k + 2) return std::nullopt;
    const std::size_t from = offset(tokens[k + 2]);
    const std::size_t to = offset(tokens[end - 1]) + tokens[end - 1].text().size();
    return constant_value(m_text.substr(from, to - from), depth);
  }
  return std::nullopt;
}

std::string SourceView::text_of(std::span<const Token> tokens, std::size_t begin, std::size_t end) const {
  end = std::min(end, tokens.size());
  if (begin >= end) return {};
  const std::size_t from = offset(tokens[begin]);
  const std::size_t to = offset(tokens[end - 1]) + tokens[end - 1].text().size();
  return std::string(m_text.substr(from, to - from));
}

std::string clipped(std::string text, std::size_t limit) {
  if (text.size() <= limit) return text;
  text.resize(limit > 3 ? limit - 3 : 0);
  return text + "...";
}

std::optional<std::int64_t> integer_literal(const Token& token) {
  if (token.kind != kernels::TokenKind::number || token.text().empty()) return std::nullopt;
  std::string digits;
  int base = 10;
  std::string_view text = token.text();
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) base = 16, text.remove_prefix(2);
  for (char c : text) {
    if (c == '\'') continue;
    if (c == 'u' || c == 'U' || c == 'l' || c == 'L') break;
    digits.push_back(c);
  }
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value, base);
  if (error != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return value;
}

}  // namespace kforecast::lint
