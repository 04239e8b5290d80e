// SPDX-License-Identifier: Apache-2.0
#include "context/setup_py_defines.hpp"

#include <cctype>
#include <string>

#include <fmt/format.h>

namespace kforecast::context {
namespace {

struct Token {
  enum class Kind { string, name, number, punctuation };
  Kind kind = Kind::punctuation;
  std::string text;  // a string's value, an f-string's {expression}s made references
  std::size_t line = 0;
};

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// An f-string's value with each {expression} a reference not known ("{{" is a brace).
std::string f_string_value(std::string_view raw) {
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    if ((raw[i] == '{' || raw[i] == '}') && i + 1 < raw.size() && raw[i + 1] == raw[i]) {
      out += raw[i++];
    } else if (raw[i] == '{') {
      const std::size_t close = raw.find('}', i);
      if (close == std::string_view::npos) return out + unknown_reference(raw.substr(i + 1));
      out += unknown_reference(raw.substr(i + 1, close - i - 1));
      i = close;
    } else {
      out += raw[i];
    }
  }
  return out;
}

class Tokenizer {
 public:
  explicit Tokenizer(std::string_view text) : m_text(text) {}

  std::vector<Token> tokens() {
    std::vector<Token> out;
    while (m_at < m_text.size()) {
      const char c = m_text[m_at];
      if (c == '\n') {
        ++m_line;
        ++m_at;
      } else if (c == '#') {
        while (m_at < m_text.size() && m_text[m_at] != '\n') ++m_at;
      } else if (std::isspace(static_cast<unsigned char>(c)) != 0) {
        ++m_at;
      } else if (auto prefix = string_prefix(); prefix >= 0) {
        out.push_back(read_string(static_cast<std::size_t>(prefix)));
      } else if (is_name_char(c)) {
        Token token{
            std::isdigit(static_cast<unsigned char>(c)) != 0 ? Token::Kind::number : Token::Kind::name, {}, m_line};
        while (m_at < m_text.size() && (is_name_char(m_text[m_at]) || m_text[m_at] == '.'))
          token.text += m_text[m_at++];
        out.push_back(std::move(token));
      } else {
        out.push_back({Token::Kind::punctuation, std::string(1, c), m_line});
        ++m_at;
      }
    }
    return out;
  }

 private:
  // The length of a string's prefix (f, rb, ...) where a string starts at the cursor, else -1.
  int string_prefix() const {
    std::size_t at = m_at;
    while (at < m_text.size() && at - m_at < 2 &&
           std::string_view("rRbBfFuU").find(m_text[at]) != std::string_view::npos)
      ++at;
    if (at < m_text.size() && (m_text[at] == '"' || m_text[at] == '\'')) return static_cast<int>(at - m_at);
    return -1;
  }

  Token read_string(std::size_t prefix_length) {
    const std::string_view prefix = m_text.substr(m_at, prefix_length);
    const bool formatted = prefix.find_first_of("fF") != std::string_view::npos;
    const bool raw = prefix.find_first_of("rR") != std::string_view::npos;
    m_at += prefix_length;
    const char quote = m_text[m_at];
    const bool triple = m_text.substr(m_at, 3) == std::string(3, quote);
    m_at += triple ? 3 : 1;
    Token token{Token::Kind::string, {}, m_line};
    std::string value;
    while (m_at < m_text.size()) {
      const char c = m_text[m_at];
      if (c == '\\' && !raw && m_at + 1 < m_text.size()) {
        value += m_text[m_at + 1];
        if (m_text[m_at + 1] == '\n') ++m_line;
        m_at += 2;
        continue;
      }
      if (c == '\n') {
        if (!triple) break;  // an unterminated one-line string ends at the line
        ++m_line;
      }
      if (c == quote && (!triple || m_text.substr(m_at, 3) == std::string(3, quote))) {
        m_at += triple ? 3 : 1;
        break;
      }
      value += c;
      ++m_at;
    }
    token.text = formatted ? f_string_value(value) : value;
    return token;
  }

  std::string_view m_text;
  std::size_t m_at = 0;
  std::size_t m_line = 1;
};

bool is(const std::vector<Token>& tokens, std::size_t at, Token::Kind kind, std::string_view text = {}) {
  return at < tokens.size() && tokens[at].kind == kind && (text.empty() || tokens[at].text == text);
}

// The ("NAME", value) tuples of the list that opens at `at`.
void read_define_macros(const std::vector<Token>& tokens, std::size_t at, std::string_view name,
                        std::vector<FoundDefine>& defines) {
  using Kind = Token::Kind;
  int depth = 0;
  for (; at < tokens.size(); ++at) {
    if (is(tokens, at, Kind::punctuation, "[")) ++depth;
    if (is(tokens, at, Kind::punctuation, "]") && --depth == 0) return;
    if (depth != 1 || !is(tokens, at, Kind::punctuation, "(") || !is(tokens, at + 1, Kind::string) ||
        !is(tokens, at + 2, Kind::punctuation, ",") || !is(tokens, at + 4, Kind::punctuation, ")"))
      continue;
    const Token& macro = tokens[at + 1];
    const Token& value = tokens[at + 3];
    const std::string where = fmt::format("{}:{}", name, macro.line);
    if (value.kind == Kind::name && value.text == "None")
      defines.push_back({macro.text, where});
    else if (value.kind == Kind::string || value.kind == Kind::number)
      defines.push_back({macro.text + "=" + value.text, where});
    else
      defines.push_back({macro.text + "=" + unknown_reference(value.text), where});
  }
}

}  // namespace

std::vector<FoundDefine> read_setup_py_defines(std::string_view text, std::string_view name) {
  using Kind = Token::Kind;
  const std::vector<Token> tokens = Tokenizer(text).tokens();
  std::vector<FoundDefine> defines;
  for (std::size_t at = 0; at < tokens.size(); ++at) {
    const Token& token = tokens[at];
    if (token.kind == Kind::string && token.text.size() > 2 && token.text.starts_with("-D")) {
      std::string define = token.text.substr(2);
      // "-DCMAKE_BUILD_TYPE={}" is an argument for the cmake a setup.py runs (vLLM's), a cache
      // variable and no macro: left out. Any other "-DX={}".format(v) has a value not known.
      if (define.starts_with("CMAKE_")) continue;
      const bool formatted = is(tokens, at + 1, Kind::punctuation, ".") && is(tokens, at + 2, Kind::name, "format");
      if (const std::size_t equals = define.find('='); formatted && equals != std::string::npos)
        define = define.substr(0, equals + 1) + unknown_reference(define.substr(0, equals));
      defines.push_back({std::move(define), fmt::format("{}:{}", name, token.line)});
    }
    const bool key = (token.kind == Kind::name || token.kind == Kind::string) && token.text == "define_macros";
    if (key && (is(tokens, at + 1, Kind::punctuation, "=") || is(tokens, at + 1, Kind::punctuation, ":")) &&
        is(tokens, at + 2, Kind::punctuation, "["))
      read_define_macros(tokens, at + 2, name, defines);
  }
  return defines;
}

}  // namespace kforecast::context
