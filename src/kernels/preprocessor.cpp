// SPDX-License-Identifier: Apache-2.0
#include "kernels/preprocessor.hpp"

#include <span>

#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

struct Conditional {
  bool parent_live = true;
  bool live = true;
  bool decided = false;  // a branch was certainly taken: later #elif and #else are dead
};

enum class Truth { no, yes, unknown };

// Only a literal 0 or 1 (false, true) is known; anything else may go either way.
Truth known_value(std::span<const Token> condition) {
  if (condition.size() != 1) return Truth::unknown;
  const std::string_view text = condition[0].text();
  if (text == "0" || text == "false") return Truth::no;
  if (text == "1" || text == "true") return Truth::yes;
  return Truth::unknown;
}

class DirectiveReader final : public DirectiveHandler {
 public:
  DirectiveReader(std::string_view source, Preprocessed& out) : m_source(source), m_out(out) {}

  bool live() const { return m_conditionals.empty() || m_conditionals.back().live; }

  bool directive(const Token& hash, std::span<const Token> words) override {
    read(hash, words);
    return live();
  }

 private:
  void read(const Token& hash, std::span<const Token> words) {
    if (words.empty() || !words[0].is_identifier()) return;
    const std::string_view directive = words[0].text();
    const auto rest = words.subspan(1);
    if (directive == "if" || directive == "ifdef" || directive == "ifndef") {
      const bool parent = live();
      const Truth value = directive == "if" ? known_value(rest) : Truth::unknown;
      m_conditionals.push_back({parent, parent && value != Truth::no, value == Truth::yes});
      if (parent) note_condition(rest);
    } else if (directive == "elif" || directive == "elifdef" || directive == "elifndef") {
      if (m_conditionals.empty()) return;
      Conditional& c = m_conditionals.back();
      const Truth value = directive == "elif" ? known_value(rest) : Truth::unknown;
      c.live = c.parent_live && !c.decided && value != Truth::no;
      c.decided = c.decided || value == Truth::yes;
      if (c.parent_live) note_condition(rest);
    } else if (directive == "else") {
      if (m_conditionals.empty()) return;
      Conditional& c = m_conditionals.back();
      c.live = c.parent_live && !c.decided;
      c.decided = true;
    } else if (directive == "endif") {
      if (!m_conditionals.empty()) m_conditionals.pop_back();
    } else if (!live()) {
      return;
    } else if (directive == "define") {
      define(hash, words);
    } else if (directive == "include" || directive == "include_next" || directive == "import") {
      include(hash, rest);
    } else if (directive == "pragma") {
      note_condition(rest);
    }
  }

  void note_condition(std::span<const Token> condition) {
    for (const Token& t : condition)
      if (t.is_identifier() && t.text() != "defined") m_out.condition_identifiers.push_back(t);
  }

  void define(const Token& hash, std::span<const Token> words) {
    if (words.size() < 2 || !words[1].is_identifier()) return;
    Macro macro;
    macro.name = std::string(words[1].text());
    macro.span = span_of(m_source, hash, words.back());
    std::size_t body = 2;
    // Function-like only when the '(' touches the name.
    if (words.size() > 2 && words[2].is_punct("(") &&
        words[2].text().data() == words[1].text().data() + words[1].text().size()) {
      macro.function_like = true;
      std::size_t i = 3;
      for (; i < words.size() && !words[i].is_punct(")"); ++i)
        if (words[i].is_identifier() || words[i].is_punct("...")) macro.parameters.emplace_back(words[i].text());
      body = std::min(i + 1, words.size());
    }
    macro.body = spaced_text(words.subspan(body));
    m_out.macros.push_back(std::move(macro));
  }

  void include(const Token& hash, std::span<const Token> rest) {
    if (rest.empty()) return;
    const Token& path = rest[0];
    std::string_view text = path.text();
    bool angled = false;
    if (path.kind == TokenKind::header_name) {
      angled = true;
      text.remove_prefix(1);
      if (!text.empty() && text.back() == '>') text.remove_suffix(1);
    } else if (path.kind == TokenKind::string_literal && text.front() == '"') {
      text.remove_prefix(1);
      if (!text.empty() && text.back() == '"') text.remove_suffix(1);
    } else {
      return;  // #include MACRO is not followed
    }
    m_out.includes.push_back(Include{std::string(text), angled, hash.line});
  }

  std::string_view m_source;
  Preprocessed& m_out;
  std::vector<Conditional> m_conditionals;
};

}  // namespace

Preprocessed preprocess(std::string_view source, std::vector<Token> storage) {
  Preprocessed out;
  DirectiveReader reader(source, out);
  lex_code(source, storage, reader);
  out.code = std::move(storage);
  return out;
}

Preprocessed preprocess(std::string_view source, std::span<const Token> tokens, std::vector<Token> storage) {
  Preprocessed out;
  DirectiveReader reader(source, out);
  storage.clear();
  storage.reserve(tokens.size());
  bool live = true;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i].kind == TokenKind::directive_begin) {
      // As lex_code() hands a directive over: its words, up to its directive_end.
      std::size_t end = i + 1;
      while (end < tokens.size() && tokens[end].kind != TokenKind::directive_end) ++end;
      live = reader.directive(tokens[i], tokens.subspan(i + 1, end - i - 1));
      i = end;
    } else if (live) {
      storage.push_back(tokens[i]);
    }
  }
  out.code = std::move(storage);
  return out;
}

}  // namespace kforecast::kernels
