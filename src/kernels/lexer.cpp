// SPDX-License-Identifier: Apache-2.0
#include "kernels/lexer.hpp"

#include <algorithm>
#include <array>

namespace kforecast::kernels {
namespace {

enum CharClass : std::uint8_t { other_char = 0, space = 1, word = 2, digit = 4, punct = 8 };

constexpr std::array<std::uint8_t, 256> make_classes() {
  std::array<std::uint8_t, 256> classes{};
  for (int c = 0; c < 256; ++c) {
    std::uint8_t k = other_char;
    if (c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r') k = space;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' || c >= 0x80) k = word;
    if (c >= '0' && c <= '9') k = word | digit;
    if (std::string_view("{}[]()<>;:,.?~!+-*/%^&|=#").find(static_cast<char>(c)) != std::string_view::npos) k = punct;
    classes[static_cast<std::size_t>(c)] = k;
  }
  return classes;
}
constexpr auto classes = make_classes();

inline std::uint8_t class_of(char c) { return classes[static_cast<unsigned char>(c)]; }
inline bool is_word(char c) { return (class_of(c) & word) != 0; }
inline bool is_digit(char c) { return (class_of(c) & digit) != 0; }

// u8 u U L R u8R uR UR LR: the prefixes of string and character literals.
bool is_string_prefix(std::string_view text) {
  if (text.size() > 3) return false;
  const char first = text[0];
  if (first != 'u' && first != 'U' && first != 'L' && first != 'R') return false;
  return text.size() == 1 || text == "u8" || text == "u8R" || text == "uR" || text == "UR" || text == "LR";
}

std::uint32_t newlines_in(std::string_view text) {
  return static_cast<std::uint32_t>(std::count(text.begin(), text.end(), '\n'));
}

}  // namespace

// Length of a backslash-newline at `at` (2 for "\\\n", 3 for "\\\r\n"), or 0.
std::size_t Lexer::splice_length(std::size_t at) const {
  if (at >= m_source.size() || m_source[at] != '\\') return 0;
  if (at + 1 < m_source.size() && m_source[at + 1] == '\n') return 2;
  if (at + 2 < m_source.size() && m_source[at + 1] == '\r' && m_source[at + 2] == '\n') return 3;
  return 0;
}

void Lexer::skip_line_comment() {
  // A backslash at the end of the line continues the comment (translation phase 2).
  while (m_pos < m_source.size()) {
    const std::size_t newline = m_source.find('\n', m_pos);
    if (newline == std::string_view::npos) {
      m_pos = m_source.size();
      return;
    }
    std::size_t before = newline;
    if (before > m_pos && m_source[before - 1] == '\r') --before;
    if (before > m_pos && m_source[before - 1] == '\\') {
      m_pos = newline + 1;
      ++m_line;
      continue;
    }
    m_pos = newline;  // the newline itself ends a directive, so it is left for the caller
    return;
  }
}

void Lexer::skip_block_comment() {
  const std::size_t close = m_source.find("*/", m_pos + 2);
  const std::size_t end = close == std::string_view::npos ? m_source.size() : close + 2;
  m_line += newlines_in(m_source.substr(m_pos, end - m_pos));
  m_pos = end;
}

// Inlined into read(): most tokens follow a space or a newline.
[[gnu::always_inline]] inline void Lexer::skip_space_and_comments() {
  while (m_pos < m_source.size()) {
    const char c = m_source[m_pos];
    if (class_of(c) & space) {
      ++m_pos;
    } else if (c == '\n') {
      if (m_in_directive) return;
      ++m_pos;
      ++m_line;
      m_at_line_start = true;
    } else if (c == '\\') {
      const std::size_t splice = splice_length(m_pos);
      if (splice == 0) return;
      m_pos += splice;
      ++m_line;
    } else if (c == '/' && m_pos + 1 < m_source.size() && m_source[m_pos + 1] == '/') {
      skip_line_comment();
    } else if (c == '/' && m_pos + 1 < m_source.size() && m_source[m_pos + 1] == '*') {
      skip_block_comment();
    } else {
      return;
    }
  }
}

// m_pos never passes the end, so the view needs no bounds check.
[[gnu::always_inline]] inline Token Lexer::finish(std::size_t begin, std::uint32_t line, TokenKind kind) {
  if (m_checked) [[unlikely]]
    return Token{std::string_view(m_source.data() + begin, m_pos - begin), line, kind};
  return Token{Token::Unchecked{}, m_source.data() + begin, m_pos - begin, line, kind};
}

Token Lexer::quoted(std::size_t begin, std::uint32_t line, char quote, TokenKind kind) {
  ++m_pos;  // the opening quote
  while (m_pos < m_source.size()) {
    const char c = m_source[m_pos];
    if (c == quote) {
      ++m_pos;
      break;
    }
    if (c == '\n') break;  // unterminated: ends with its line
    if (c == '\\' && m_pos + 1 < m_source.size()) {
      const std::size_t splice = splice_length(m_pos);
      m_pos += splice != 0 ? splice : 2;
      if (splice != 0) ++m_line;
      continue;
    }
    ++m_pos;
  }
  return finish(begin, line, kind);
}

// R"delim( ... )delim": no escapes, newlines kept. A malformed delimiter makes the prefix an
// identifier and the quote an ordinary string, which is how the text is read next.
Token Lexer::raw_string(std::size_t begin, std::uint32_t line, std::size_t quote_at) {
  std::size_t open = quote_at + 1;
  while (open < m_source.size() && open - quote_at - 1 <= 16) {
    const char c = m_source[open];
    if (c == '(') break;
    if (c == ')' || c == '\\' || c == '"' || c == '\n' || (class_of(c) & space))
      return finish(begin, line, TokenKind::identifier);
    ++open;
  }
  if (open >= m_source.size() || m_source[open] != '(') return finish(begin, line, TokenKind::identifier);
  const std::string_view delimiter = m_source.substr(quote_at + 1, open - quote_at - 1);
  std::size_t end = m_source.size();
  for (std::size_t search = open + 1;;) {
    const std::size_t close = m_source.find(')', search);
    if (close == std::string_view::npos) break;
    const std::size_t quote = close + 1 + delimiter.size();
    if (quote < m_source.size() && m_source.substr(close + 1, delimiter.size()) == delimiter &&
        m_source[quote] == '"') {
      end = quote + 1;
      break;
    }
    search = close + 1;
  }
  m_line += newlines_in(m_source.substr(m_pos, end - m_pos));
  m_pos = end;
  return finish(begin, line, TokenKind::string_literal);
}

Token Lexer::identifier_or_literal(std::size_t begin, std::uint32_t line) {
  while (m_pos < m_source.size() && is_word(m_source[m_pos])) ++m_pos;
  const std::string_view text = m_source.substr(begin, m_pos - begin);
  if (m_pos < m_source.size() && (m_source[m_pos] == '"' || m_source[m_pos] == '\'') && is_string_prefix(text)) {
    const bool raw = text.back() == 'R';
    if (m_source[m_pos] == '"')
      return raw ? raw_string(begin, line, m_pos) : quoted(begin, line, '"', TokenKind::string_literal);
    if (!raw) return quoted(begin, line, '\'', TokenKind::char_literal);
  }
  if (m_in_directive && m_directive_tokens == 1 && (text == "include" || text == "include_next" || text == "import"))
    m_expect_header_name = true;
  return finish(begin, line, TokenKind::identifier);
}

Token Lexer::number(std::size_t begin, std::uint32_t line) {
  ++m_pos;
  while (m_pos < m_source.size()) {
    const char c = m_source[m_pos];
    const char after = m_pos + 1 < m_source.size() ? m_source[m_pos + 1] : '\0';
    // NOLINTNEXTLINE(bugprone-branch-clone): an exponent sign and a digit separator each skip two
    if ((c == 'e' || c == 'E' || c == 'p' || c == 'P') && (after == '+' || after == '-')) {
      m_pos += 2;
    } else if (is_word(c) || c == '.') {
      ++m_pos;
    } else if (c == '\'' && is_word(after)) {
      m_pos += 2;  // a digit separator
    } else {
      break;
    }
  }
  return finish(begin, line, TokenKind::number);
}

// The longest operator at `begin` (maximal munch), decided on bytes: this runs for a third of
// all tokens.
[[gnu::always_inline]] inline Token Lexer::punctuation(std::size_t begin, std::uint32_t line) {
  const char c = m_source[begin];
  const char c1 = begin + 1 < m_source.size() ? m_source[begin + 1] : '\0';
  const char c2 = begin + 2 < m_source.size() ? m_source[begin + 2] : '\0';
  std::size_t length = 1;
  switch (c) {
    case ':':
      length = c1 == ':' ? 2 : 1;
      break;
    case '-':
      length = c1 == '>' ? (c2 == '*' ? 3 : 2) : (c1 == '-' || c1 == '=') ? 2 : 1;
      break;
    case '+':
    case '&':
    case '|':
      length = c1 == c || c1 == '=' ? 2 : 1;
      break;
    case '<':
      if (c1 == '<') {
        length = c2 == '=' ? 3 : 2;
      } else if (c1 == '=') {
        length = c2 == '>' ? 3 : 2;
      }
      break;
    case '>':
      if (c1 == '>') {
        length = c2 == '=' ? 3 : 2;
      } else if (c1 == '=') {
        length = 2;
      }
      break;
    case '.':
      length = c1 == '.' && c2 == '.' ? 3 : c1 == '*' ? 2 : 1;
      break;
    case '#':
      length = c1 == '#' ? 2 : 1;
      break;
    case '=':
    case '!':
    case '*':
    case '/':
    case '%':
    case '^':
      length = c1 == '=' ? 2 : 1;
      break;
    default:
      break;
  }
  m_pos = begin + length;
  return finish(begin, line, TokenKind::punctuation);
}

Token Lexer::header_name(std::size_t begin, std::uint32_t line) {
  while (m_pos < m_source.size() && m_source[m_pos] != '\n') {
    if (m_source[m_pos++] == '>') break;
  }
  return finish(begin, line, TokenKind::header_name);
}

[[gnu::always_inline]] inline Token Lexer::read() {
  skip_space_and_comments();
  const std::size_t begin = m_pos;
  const std::uint32_t line = m_line;
  if (m_pos >= m_source.size()) {
    const TokenKind kind = m_in_directive ? TokenKind::directive_end : TokenKind::end;
    m_in_directive = false;
    return Token{std::string_view(m_source.data() + begin, 0), line, kind};
  }
  const char c = m_source[m_pos];
  if (!m_in_directive) [[likely]] {
    // Code outside directives, most tokens: one class lookup decides names, numbers and
    // punctuation. (No newline reaches here, and no header name is expected.)
    const bool at_line_start = m_at_line_start;
    m_at_line_start = false;
    const std::uint8_t k = class_of(c);
    if (k & word) {
      if (k & digit) return number(begin, line);
      // A plain name is most of all tokens: only a quote after it needs more.
      std::size_t end = m_pos + 1;
      while (end < m_source.size() && is_word(m_source[end])) ++end;
      if (end == m_source.size() || (m_source[end] != '"' && m_source[end] != '\'')) {
        m_pos = end;
        return finish(begin, line, TokenKind::identifier);
      }
      return identifier_or_literal(begin, line);
    }
    if (k & punct) {
      if (c == '#' && at_line_start) {
        m_in_directive = true;
        m_directive_tokens = 0;
        m_expect_header_name = false;
        ++m_pos;
        return finish(begin, line, TokenKind::directive_begin);
      }
      if (c == '.' && m_pos + 1 < m_source.size() && is_digit(m_source[m_pos + 1])) return number(begin, line);
      return punctuation(begin, line);
    }
    if (c == '"') return quoted(begin, line, '"', TokenKind::string_literal);
    if (c == '\'') return quoted(begin, line, '\'', TokenKind::char_literal);
    ++m_pos;
    return finish(begin, line, TokenKind::other);
  }
  if (c == '\n') {  // reached only inside a directive
    m_in_directive = false;
    m_expect_header_name = false;
    ++m_pos;
    ++m_line;
    m_at_line_start = true;
    return Token{std::string_view(m_source.data() + begin, 0), line, TokenKind::directive_end};
  }
  const bool at_line_start = m_at_line_start;
  m_at_line_start = false;
  if (c == '#' && at_line_start && !m_in_directive) {
    m_in_directive = true;
    m_directive_tokens = 0;
    m_expect_header_name = false;
    ++m_pos;
    return finish(begin, line, TokenKind::directive_begin);
  }
  if (m_in_directive) ++m_directive_tokens;
  if (m_expect_header_name) {
    m_expect_header_name = false;
    if (c == '<') return header_name(begin, line);
  }
  if (is_digit(c) || (c == '.' && m_pos + 1 < m_source.size() && is_digit(m_source[m_pos + 1])))
    return number(begin, line);
  if (is_word(c)) {
    // A plain name is most of all tokens: only a quote after it, or a directive, needs more.
    std::size_t end = m_pos + 1;
    while (end < m_source.size() && is_word(m_source[end])) ++end;
    if (!m_in_directive && (end == m_source.size() || (m_source[end] != '"' && m_source[end] != '\''))) {
      m_pos = end;
      return finish(begin, line, TokenKind::identifier);
    }
    return identifier_or_literal(begin, line);
  }
  if (c == '"') return quoted(begin, line, '"', TokenKind::string_literal);
  if (c == '\'') return quoted(begin, line, '\'', TokenKind::char_literal);
  if (class_of(c) & punct) return punctuation(begin, line);
  ++m_pos;
  return finish(begin, line, TokenKind::other);
}

Token Lexer::next() { return read(); }

void lex_code(std::string_view source, std::vector<Token>& code, DirectiveHandler& handler) {
  code.clear();
  code.reserve(source.size() / 3 + 16);  // dense CUDA code has a token every 3.5 bytes
  Lexer lexer(source);
  std::vector<Token> words;
  bool live = true;
  for (Token token = lexer.read(); token.kind != TokenKind::end; token = lexer.read()) {
    if (token.kind == TokenKind::directive_begin) {
      const Token hash = token;
      words.clear();
      // Every directive ends with a directive_end, also at the end of input.
      for (token = lexer.read(); token.kind != TokenKind::directive_end; token = lexer.read()) words.push_back(token);
      live = handler.directive(hash, words);
    } else if (live) {
      code.push_back(token);
    }
  }
}

void lex(std::string_view source, std::vector<Token>& tokens) {
  tokens.clear();
  tokens.reserve(source.size() / 3 + 16);  // dense CUDA code has a token every 3.5 bytes
  Lexer lexer(source);
  for (Token token = lexer.read(); token.kind != TokenKind::end; token = lexer.read()) tokens.push_back(token);
}

std::vector<Token> lex(std::string_view source) {
  std::vector<Token> tokens;
  lex(source, tokens);
  return tokens;
}

}  // namespace kforecast::kernels
