// SPDX-License-Identifier: Apache-2.0
#include "config/ascii_toml.hpp"

#include <fmt/format.h>

namespace kforecast::config {
namespace {

enum class Lexeme { bare, comment, basic_string, literal_string, multiline_basic, multiline_literal };

// Decodes one UTF-8 code point at text[i]; returns its length, or 0 for an invalid sequence
// (overlong, surrogate, out of range, truncated).
std::size_t decode_utf8(std::string_view text, std::size_t i, char32_t& code_point) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  char32_t minimum = 0;
  if (lead >= 0xC2 && lead <= 0xDF)
    length = 2, minimum = 0x80, code_point = lead & 0x1F;
  else if (lead >= 0xE0 && lead <= 0xEF)
    length = 3, minimum = 0x800, code_point = lead & 0x0F;
  else if (lead >= 0xF0 && lead <= 0xF4)
    length = 4, minimum = 0x10000, code_point = lead & 0x07;
  else
    return 0;
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code_point = (code_point << 6) | (byte(i + k) & 0x3F);
  }
  if (code_point < minimum || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) return 0;
  return length;
}

std::string escape(char32_t code_point) {
  return code_point <= 0xFFFF ? fmt::format("\\u{:04X}", static_cast<std::uint32_t>(code_point))
                              : fmt::format("\\U{:08X}", static_cast<std::uint32_t>(code_point));
}

}  // namespace

std::expected<std::string, NonAsciiProblem> to_ascii_toml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  Lexeme state = Lexeme::bare;
  TextPosition position;
  // A one-line literal string has no escapes, so one holding non-ASCII text is emitted as a basic
  // string: its body is kept twice until the closing quote says which form is needed.
  std::string literal_as_is, literal_as_basic;
  bool literal_needs_basic = false;
  auto at = [&](std::size_t i, std::string_view token) { return text.substr(i, token.size()) == token; };
  auto flush_literal = [&](bool closed) {
    if (literal_needs_basic)
      out += '"' + literal_as_basic + (closed ? "\"" : "");
    else
      out += '\'' + literal_as_is + (closed ? "'" : "");
    literal_as_is.clear();
    literal_as_basic.clear();
    literal_needs_basic = false;
  };

  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      char32_t code_point = 0;
      const std::size_t length = decode_utf8(text, i, code_point);
      if (length == 0) return std::unexpected(NonAsciiProblem{position, "invalid UTF-8"});
      if (state == Lexeme::comment) {
        out += '?';
      } else if (state == Lexeme::basic_string) {
        out += escape(code_point);
      } else if (state == Lexeme::literal_string) {
        literal_as_basic += escape(code_point);
        literal_needs_basic = true;
      } else {
        return std::unexpected(NonAsciiProblem{position, "non-ASCII text outside a comment or a one-line string"});
      }
      i += length - 1;
      position.column += static_cast<std::uint32_t>(length);
      continue;
    }
    position.column += 1;
    if (c == '\n') {
      // One-line strings and comments end at a newline (an unterminated string is toml++'s to report).
      if (state == Lexeme::literal_string) flush_literal(false);
      if (state != Lexeme::multiline_basic && state != Lexeme::multiline_literal) state = Lexeme::bare;
      out += c;
      ++position.line;
      position.column = 1;
      continue;
    }
    std::size_t consumed = 1;
    switch (state) {
      case Lexeme::bare:
        if (c == '#')
          state = Lexeme::comment;
        else if (at(i, "\"\"\""))
          state = Lexeme::multiline_basic, consumed = 3;
        else if (at(i, "'''"))
          state = Lexeme::multiline_literal, consumed = 3;
        else if (c == '"')
          state = Lexeme::basic_string;
        else if (c == '\'') {
          state = Lexeme::literal_string;
          continue;  // the opening quote is written by flush_literal
        }
        break;
      case Lexeme::basic_string:
      case Lexeme::multiline_basic:
        // An escaped ASCII character never closes the string.
        if (c == '\\' && i + 1 < text.size() && text[i + 1] != '\n' && static_cast<unsigned char>(text[i + 1]) < 0x80)
          consumed = 2;
        else if (state == Lexeme::basic_string && c == '"')
          state = Lexeme::bare;
        else if (state == Lexeme::multiline_basic && at(i, "\"\"\""))
          state = Lexeme::bare, consumed = 3;
        break;
      case Lexeme::literal_string:
        if (c == '\'') {
          state = Lexeme::bare;
          flush_literal(true);
        } else {
          literal_as_is += c;
          literal_as_basic += (c == '\\' || c == '"') ? std::string{'\\', c} : std::string{c};
        }
        continue;
      case Lexeme::multiline_literal:
        if (at(i, "'''")) state = Lexeme::bare, consumed = 3;
        break;
      case Lexeme::comment:
        break;
    }
    out.append(text.substr(i, consumed));
    i += consumed - 1;
    position.column += static_cast<std::uint32_t>(consumed - 1);
  }
  if (state == Lexeme::literal_string) flush_literal(false);
  return out;
}

}  // namespace kforecast::config
