// SPDX-License-Identifier: Apache-2.0
#pragma once

// Tokens of CUDA C++ source as the scanner sees them. Comments and whitespace are dropped; a
// preprocessor directive is bracketed by directive_begin and directive_end, so the scanner can
// take it as one unit. A token views the source and lives as long as the source does.
// Read a token's bytes with text(); `line` and `kind` are plain fields.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace kforecast::kernels {

enum class TokenKind : std::uint8_t {
  identifier,       // keywords too; bytes >= 0x80 count as identifier characters
  number,           // a preprocessing number: 0x1Fu, 1'000, 1.5e-3f
  string_literal,   // prefix and quotes included, raw strings too
  char_literal,     // prefix and quotes included
  header_name,      // <path> after #include, brackets included
  punctuation,      // the longest operator: "::", "->", ">>=", "..."
  directive_begin,  // the '#' that starts a directive line
  directive_end,    // empty, at the newline (or the end of input) that ends a directive
  other,            // any other single byte: '@', '`', a stray '\', control characters
  end,              // empty, at the end of input
};

// 16 bytes (it was 24 with a std::string_view): a scan stores a token for every 3.5 bytes of
// source and walks the vector several times, so its size is the scan's memory traffic.
struct Token {
  Token() : line(0), kind(TokenKind::end) {}
  // Lines past 2^24 - 1 (a source of 16 million lines) all read as that last line.
  Token(std::string_view text, std::uint32_t line_, TokenKind kind_)
      : m_data(text.data()),
        m_size(static_cast<std::uint32_t>(std::min<std::size_t>(text.size(), UINT32_MAX))),
        line(line_ < max_line ? line_ : max_line),
        kind(kind_) {}

  // Without those two checks, for the lexer, which knows once per source that neither a line
  // nor a length can overflow (a source of fewer than 2^24 - 1 bytes).
  struct Unchecked {};
  Token(Unchecked, const char* data, std::size_t size, std::uint32_t line_, TokenKind kind_)
      : m_data(data), m_size(static_cast<std::uint32_t>(size)), line(line_), kind(kind_) {}

  static constexpr std::uint32_t max_line = (std::uint32_t{1} << 24) - 1;

  std::string_view text() const { return {m_data, m_size}; }

  bool is_punct(std::string_view punct) const { return kind == TokenKind::punctuation && text() == punct; }
  bool is_identifier(std::string_view name) const { return kind == TokenKind::identifier && text() == name; }
  bool is_identifier() const { return kind == TokenKind::identifier; }

 private:
  const char* m_data = nullptr;
  std::uint32_t m_size = 0;  // a token of 4 GiB or more (in a source that large) is cut to 4 GiB - 1

 public:
  std::uint32_t line : 24;  // 1-based line of the token's first byte
  TokenKind kind : 8;
};

}  // namespace kforecast::kernels
