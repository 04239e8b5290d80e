// SPDX-License-Identifier: Apache-2.0
#pragma once

// A lexer for CUDA C++ that accepts any bytes: it never fails, always advances, and ends every
// unterminated construct at the end of input (an unterminated string or character literal ends
// at the end of its line, as compilers recover). It splices backslash-newlines as whitespace,
// counts lines across LF and CRLF, and knows no keywords: the scanner decides what a name means.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/token.hpp"

namespace kforecast::kernels {

// Whether the first byte of the text starts a line, so that a leading '#' opens a directive.
// Text lexed from inside a line (a macro body) says no.
enum class StartOfLine { yes, no };

class DirectiveHandler;

class Lexer {
 public:
  explicit Lexer(std::string_view source, std::uint32_t first_line = 1, StartOfLine start = StartOfLine::yes)
      : m_source(source),
        m_line(first_line),
        m_at_line_start(start == StartOfLine::yes),
        m_checked(first_line + source.size() >= Token::max_line) {
    // A UTF-8 byte-order mark opening a file is not text, as nvcc and every host compiler agree.
    if (first_line == 1 && start == StartOfLine::yes && source.starts_with("\xEF\xBB\xBF")) m_pos = 3;
  }

  // The next token; at the end of input, a token of kind `end` (again on every later call).
  Token next();

 private:
  friend void lex(std::string_view source, std::vector<Token>& tokens);
  friend void lex_code(std::string_view source, std::vector<Token>& code, DirectiveHandler& handler);
  Token read();  // next(), inlined into the lex functions: the token then goes straight into the vector
  void skip_space_and_comments();
  void skip_line_comment();
  void skip_block_comment();
  std::size_t splice_length(std::size_t at) const;
  Token finish(std::size_t begin, std::uint32_t line, TokenKind kind);
  Token quoted(std::size_t begin, std::uint32_t line, char quote, TokenKind kind);
  Token raw_string(std::size_t begin, std::uint32_t line, std::size_t quote_at);
  Token identifier_or_literal(std::size_t begin, std::uint32_t line);
  Token number(std::size_t begin, std::uint32_t line);
  Token punctuation(std::size_t begin, std::uint32_t line);
  Token header_name(std::size_t begin, std::uint32_t line);

  std::string_view m_source;
  std::size_t m_pos = 0;
  std::uint32_t m_line = 1;
  bool m_at_line_start = true;
  bool m_in_directive = false;
  int m_directive_tokens = 0;  // tokens since the directive's '#'
  bool m_expect_header_name = false;
  bool m_checked;  // whether a line or a length may overflow a Token's fields (a huge source)
};

// Takes each directive whole while the code around it is lexed, so that the code tokens need no
// second pass to take the directives out.
class DirectiveHandler {
 public:
  // `hash` is the directive's '#', `words` what follows it up to the end of its line; returns
  // whether the code after the directive is live (not in a dead #if branch).
  virtual bool directive(const Token& hash, std::span<const Token> words) = 0;

 protected:
  ~DirectiveHandler() = default;
};

// The code tokens of the source into `code` (cleared first, memory reused): those outside
// directives and outside what `handler` calls dead, in order, without the final `end` token.
void lex_code(std::string_view source, std::vector<Token>& code, DirectiveHandler& handler);

// Every token of the source in order, without the final `end` token.
std::vector<Token> lex(std::string_view source);
// The same into `tokens`, whose memory is reused: cleared first.
void lex(std::string_view source, std::vector<Token>& tokens);

}  // namespace kforecast::kernels
