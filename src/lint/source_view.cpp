// SPDX-License-Identifier: Apache-2.0
#include "lint/source_view.hpp"

#include <algorithm>
#include <charconv>

#include "kernels/preprocessor.hpp"

namespace kforecast::lint {

SourceView::SourceView(std::string_view text)
    : m_text(text), m_code(kernels::preprocess(text).code), m_scanned(kernels::scan_cuda_source(text)) {
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

std::uint32_t SourceView::column(const Token& token) const { return column_of(offset(token)); }

std::string_view SourceView::line_text(std::uint32_t line) const {
  if (line == 0 || line > m_line_starts.size()) return {};
  const std::size_t begin = m_line_starts[line - 1];
  std::size_t end = line < m_line_starts.size() ? m_line_starts[line] - 1 : m_text.size();
  if (end > begin && m_text[end - 1] == '\r') --end;
  return m_text.substr(begin, end - begin);
}

std::optional<std::int64_t> SourceView::macro_number(std::string_view name) const {
  for (const auto& macro : m_scanned.macros) {
    if (macro.name != name || macro.function_like) continue;
    std::string_view body = macro.body;
    while (!body.empty() && (body.front() == '(' || body.front() == ' ')) body.remove_prefix(1);
    while (!body.empty() && (body.back() == ')' || body.back() == ' ')) body.remove_suffix(1);
    return integer_literal(Token{body, 0, kernels::TokenKind::number});
  }
  return std::nullopt;
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
