// SPDX-License-Identifier: Apache-2.0
#pragma once

// Tokens of CUDA C++ source as the scanner sees them. Comments and whitespace are dropped; a
// preprocessor directive is bracketed by directive_begin and directive_end, so the scanner can
// take it as one unit. A token views the source and lives as long as the source does.

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

struct Token {
  std::string_view text;
  std::uint32_t line = 0;  // 1-based line of the token's first byte
  TokenKind kind = TokenKind::end;

  bool is_punct(std::string_view punct) const { return kind == TokenKind::punctuation && text == punct; }
  bool is_identifier(std::string_view name) const { return kind == TokenKind::identifier && text == name; }
  bool is_identifier() const { return kind == TokenKind::identifier; }
};

}  // namespace kforecast::kernels
