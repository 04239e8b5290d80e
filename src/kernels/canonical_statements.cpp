// SPDX-License-Identifier: Apache-2.0
// The canonical form's passes over statements: redundant parentheses, and the braces around a
// body of one statement (canonical_tokens.hpp).
#include <algorithm>
#include <cstdint>
#include <optional>

#include "kernels/canonical_passes.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {

bool looks_like_macro(std::string_view name) {
  if (name.size() < 2) return false;
  bool letter = false;
  for (const char c : name) {
    if (c >= 'a' && c <= 'z') return false;
    letter = letter || (c >= 'A' && c <= 'Z');
  }
  return letter;
}

namespace {

// Operators that no declaration holds, so that `T v((a + b))` and `T v(a + b)` both define a
// variable (`T v((A()))` defines one where `T v(A())` declares a function), and that bind tighter
// than any list around them.
bool is_expression_operator(const Token& t) {
  if (t.kind == TokenKind::number || t.kind == TokenKind::string_literal || t.kind == TokenKind::char_literal)
    return true;
  if (t.kind != TokenKind::punctuation) return false;
  const std::string_view p = t.text();
  return p == "+" || p == "-" || p == "/" || p == "%" || p == "^" || p == "|" || p == "||" || p == "==" || p == "!=" ||
         p == "?" || p == "." || p == "->" || p == "!" || p == "~";
}

bool opens_list(const Token& t) { return t.is_punct("(") || t.is_punct(",") || t.is_punct("[") || t.is_punct("{"); }
bool closes_list(const Token& t) { return t.is_punct(")") || t.is_punct(",") || t.is_punct("]") || t.is_punct("}"); }

// Parentheses around a whole item of a list, `f(a, (b + c))`, `((b + c))`, `x[(i + 1)]`,
// and around a returned value, `return (a + b);` (RemoveParentheses), are left out where the
// item is an expression no declaration could be (it has an operator above) and has no comma of
// its own. Never inside decltype (decltype((x)) is not decltype(x)), nor in the arguments of a
// macro call, whose text a macro may turn into a string.
class RedundantParentheses {
 public:
  RedundantParentheses(std::span<const Token> tokens, const MacroStatements* macros, std::vector<bool>& dropped)
      : m_tokens(tokens), m_macros(macros), m_dropped(dropped) {
    m_dropped.assign(tokens.size(), false);
  }

  void write(std::vector<Token>& out) {
    mark();
    out.clear();
    out.reserve(m_tokens.size());
    for (std::size_t i = 0; i < m_tokens.size(); ++i)
      if (!m_dropped[i]) out.push_back(m_tokens[i]);
  }

 private:
  struct Group {
    std::size_t open = 0;
    bool operator_inside = false;  // at its top level, counting dropped groups' insides
    bool comma_inside = false;
    bool protected_inside = false;  // decltype's, or a macro call's at any depth
  };

  bool is_macro_call(std::size_t open) const {
    if (open == 0 || !m_tokens[open - 1].is_identifier()) return false;
    const std::string_view name = m_tokens[open - 1].text();
    return name == "assert" || looks_like_macro(name) ||
           (m_macros && (m_macros->one_statement.contains(name) || m_macros->several.contains(name)));
  }

  void mark() {
    std::vector<Group> open;
    for (std::size_t i = 0; i < m_tokens.size(); ++i) {
      const Token& t = m_tokens[i];
      if (t.is_punct("(") || t.is_punct("[") || t.is_punct("{")) {
        const bool enclosing_protected = !open.empty() && open.back().protected_inside;
        const bool decltype_call = t.is_punct("(") && i > 0 && m_tokens[i - 1].is_identifier("decltype");
        open.push_back(
            {i, false, false, enclosing_protected || decltype_call || (t.is_punct("(") && is_macro_call(i))});
        continue;
      }
      if (open.empty()) continue;
      if (t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) {
        const Group group = open.back();
        open.pop_back();
        const bool dropped = t.is_punct(")") && m_tokens[group.open].is_punct("(") && redundant(group, i, open);
        if (dropped) {
          m_dropped[group.open] = m_dropped[i] = true;
          if (!open.empty()) open.back().operator_inside = open.back().operator_inside || group.operator_inside;
        }
        continue;
      }
      if (t.is_punct(",")) open.back().comma_inside = true;
      if (is_expression_operator(t)) open.back().operator_inside = true;
    }
  }

  bool redundant(const Group& group, std::size_t close, const std::vector<Group>& enclosing) const {
    if (!group.operator_inside || group.comma_inside || group.protected_inside) return false;
    if (!enclosing.empty() && enclosing.back().protected_inside) return false;
    if (group.open == 0 || close + 1 >= m_tokens.size()) return false;
    const Token& before = m_tokens[group.open - 1];
    const Token& after = m_tokens[close + 1];
    if (before.is_identifier("return") && after.is_punct(";")) {
      // decltype(auto) tells (a.b) from a.b: only an arithmetic or logical operator will do.
      for (std::size_t k = group.open + 1; k < close; ++k)
        if (m_tokens[k].is_punct(".") || m_tokens[k].is_punct("->")) return false;
      return true;
    }
    return opens_list(before) && closes_list(after);
  }

  std::span<const Token> m_tokens;
  const MacroStatements* m_macros;
  std::vector<bool>& m_dropped;
};

// Where one statement that starts at `at` ends, and whether it ends in an `if` without an
// `else` (an `else` written after it would bind to that `if`). Nothing where the tokens are no
// single statement this reading is sure of.
struct StatementEnd {
  std::size_t end = 0;
  bool open_if = false;
};

std::optional<std::size_t> after_parentheses(std::span<const Token> tokens, std::size_t open) {
  if (open >= tokens.size() || !tokens[open].is_punct("(")) return std::nullopt;
  const std::size_t close = matching_close(tokens, open);
  if (close >= tokens.size()) return std::nullopt;
  return close + 1;
}

// Bounded recursion: a body nested this deep is read as it is written.
constexpr int deepest_statement = 64;

// Whether a name used in a statement may stand for several statements.
bool may_be_statements(const Token& name, bool called, const MacroStatements* macros) {
  if (macros && macros->several.contains(name.text())) return true;
  return called && looks_like_macro(name.text()) && !(macros && macros->one_statement.contains(name.text()));
}

std::optional<StatementEnd> statement_end(std::span<const Token> tokens, std::size_t at, const MacroStatements* macros,
                                          int depth = 0) {
  if (at >= tokens.size() || depth > deepest_statement) return std::nullopt;
  const Token& first = tokens[at];
  if (is_directive(first)) return std::nullopt;
  if (first.is_punct("{")) {
    const std::size_t close = matching_close(tokens, at);
    if (close >= tokens.size()) return std::nullopt;
    for (std::size_t k = at; k < close; ++k)
      if (is_directive(tokens[k])) return std::nullopt;
    return StatementEnd{close + 1, false};
  }
  if (first.is_identifier("if")) {
    std::size_t open = at + 1;
    if (open < tokens.size() && tokens[open].is_identifier("constexpr")) ++open;
    const auto body = after_parentheses(tokens, open);
    if (!body) return std::nullopt;
    const auto then = statement_end(tokens, *body, macros, depth + 1);
    if (!then) return std::nullopt;
    if (then->end < tokens.size() && tokens[then->end].is_identifier("else"))
      return statement_end(tokens, then->end + 1, macros, depth + 1);
    return StatementEnd{then->end, true};
  }
  if (first.is_identifier("for") || first.is_identifier("while") || first.is_identifier("switch")) {
    const auto body = after_parentheses(tokens, at + 1);
    if (!body) return std::nullopt;
    return statement_end(tokens, *body, macros, depth + 1);
  }
  if (first.is_identifier("do")) {
    const auto body = statement_end(tokens, at + 1, macros, depth + 1);
    if (!body || body->end >= tokens.size() || !tokens[body->end].is_identifier("while")) return std::nullopt;
    const auto after = after_parentheses(tokens, body->end + 1);
    if (!after || *after >= tokens.size() || !tokens[*after].is_punct(";")) return std::nullopt;
    return StatementEnd{*after + 1, false};
  }
  if (first.is_identifier("case") || first.is_identifier("default") || first.is_identifier("else") ||
      first.is_identifier("try") || first.is_identifier("catch"))
    return std::nullopt;
  if (first.is_identifier() && at + 1 < tokens.size() && tokens[at + 1].is_punct(":")) return std::nullopt;  // a label
  // An expression or a declaration: up to its ';'.
  int nesting = 0;
  for (std::size_t k = at; k < tokens.size(); ++k) {
    const Token& t = tokens[k];
    if (is_directive(t)) return std::nullopt;
    if (t.is_identifier() && may_be_statements(t, k + 1 < tokens.size() && tokens[k + 1].is_punct("("), macros))
      return std::nullopt;
    if (t.kind != TokenKind::punctuation || t.text().size() != 1) continue;
    const char c = t.text()[0];
    if (c == '(' || c == '[' || c == '{') ++nesting;
    if ((c == ')' || c == ']' || c == '}') && --nesting < 0) return std::nullopt;
    if (c == ';' && nesting == 0) return StatementEnd{k + 1, false};
  }
  return std::nullopt;
}

// The braces around a body of one statement are left out.
class BodyBraces {
 public:
  // `roles` and `scratch` lend their memory: a revision takes thousands of canonical forms.
  BodyBraces(std::span<const Token> tokens, const MacroStatements* macros, std::vector<std::uint8_t>& roles,
             std::vector<std::vector<Token>>& scratch)
      : m_tokens(tokens), m_macros(macros), m_role(roles), m_scratch(scratch) {
    m_role.assign(tokens.size(), plain);
    mark_bodies();
  }

  void write(std::vector<Token>& out) {
    out.clear();
    out.reserve(m_tokens.size());
    write(0, m_tokens.size(), out, 0);
  }

 private:
  // A '{' that opens the body of an if, for, while (after its parentheses), else or do; a ';'
  // after a function's body (`void f() { ... };`), an empty declaration that says nothing.
  void mark_bodies() {
    enum class Parentheses : std::uint8_t { none, control, lambda, other };
    thread_local std::vector<Parentheses> parentheses;  // per open '('
    thread_local std::vector<bool> function_body;       // per open '{'
    parentheses.clear();
    function_body.clear();
    Parentheses closed = Parentheses::none;  // those just closed, before a '{' or qualifiers
    bool trailing_type = false;              // after their `->`
    for (std::size_t i = 0; i < m_tokens.size(); ++i) {
      const Token& t = m_tokens[i];
      const bool next_is_brace = i + 1 < m_tokens.size() && m_tokens[i + 1].is_punct("{");
      if (t.is_punct("(")) {
        const Token* before = i > 0 ? &m_tokens[i - 1] : nullptr;
        if (before && before->is_identifier("constexpr") && i > 1) before = &m_tokens[i - 2];
        const bool control =
            before && (before->is_identifier("if") || before->is_identifier("for") || before->is_identifier("while"));
        parentheses.push_back(control                                                      ? Parentheses::control
                              : before && (before->is_punct("]") || before->is_punct(">")) ? Parentheses::lambda
                                                                                           : Parentheses::other);
        closed = Parentheses::none;
        continue;
      }
      if (t.is_punct(")")) {
        if (parentheses.empty()) continue;
        if (parentheses.back() == Parentheses::control && next_is_brace) m_role[i + 1] = body;
        closed = parentheses.back();
        parentheses.pop_back();
        continue;
      }
      if (t.is_punct("{")) {
        function_body.push_back(closed == Parentheses::other);
      } else if (t.is_punct("}")) {
        if (function_body.empty()) continue;
        if (function_body.back() && i + 1 < m_tokens.size() && m_tokens[i + 1].is_punct(";")) m_role[i + 1] = dropped;
        function_body.pop_back();
      } else if ((t.is_identifier("else") || t.is_identifier("do")) && next_is_brace) {
        m_role[i + 1] = body;
      }
      if (closed == Parentheses::none) continue;
      // `) const noexcept {`, `) const -> ns::T<4>* {`: still the function's body to come.
      const bool qualifier = t.is_identifier("const") || t.is_identifier("volatile") || t.is_identifier("noexcept") ||
                             t.is_identifier("override") || t.is_identifier("final") || t.is_punct("&") ||
                             t.is_punct("&&") || t.is_punct("->");
      if (t.is_punct("->")) trailing_type = true;
      const bool in_trailing_type =
          trailing_type && (t.is_identifier() || t.is_punct("::") || t.is_punct("<") || t.is_punct(">") ||
                            t.is_punct("*") || t.is_punct(",") || t.kind == TokenKind::number);
      if (!qualifier && !in_trailing_type) closed = Parentheses::none;
      if (closed == Parentheses::none) trailing_type = false;
    }
  }

  void write(std::size_t begin, std::size_t end, std::vector<Token>& out, int depth) {
    for (std::size_t i = begin; i < end;) {
      if (m_role[i] == dropped) {
        ++i;
        continue;
      }
      if (m_role[i] != body || depth > deepest_statement) {
        out.push_back(m_tokens[i++]);
        continue;
      }
      const std::size_t close = matching_close(m_tokens.first(end), i);
      if (close >= end) {
        out.push_back(m_tokens[i++]);
        continue;
      }
      if (m_scratch.size() <= static_cast<std::size_t>(depth)) m_scratch.resize(static_cast<std::size_t>(depth) + 1);
      std::vector<Token> inside = std::move(m_scratch[static_cast<std::size_t>(depth)]);
      inside.clear();
      write(i + 1, close, inside, depth + 1);
      const auto single = statement_end(inside, 0, m_macros);
      const bool else_follows = close + 1 < end && m_tokens[close + 1].is_identifier("else");
      if (single && single->end == inside.size() && !(else_follows && single->open_if)) {
        out.insert(out.end(), inside.begin(), inside.end());
      } else {
        out.push_back(m_tokens[i]);
        out.insert(out.end(), inside.begin(), inside.end());
        out.push_back(m_tokens[close]);
      }
      m_scratch[static_cast<std::size_t>(depth)] = std::move(inside);
      i = close + 1;
    }
  }

  // What a token is to this pass: a body's '{', or a ';' left out.
  static constexpr std::uint8_t plain = 0, body = 1, dropped = 2;
  std::span<const Token> m_tokens;
  const MacroStatements* m_macros;
  std::vector<std::uint8_t>& m_role;
  std::vector<std::vector<Token>>& m_scratch;  // per depth, kept between bodies
};

}  // namespace

void drop_redundant_parentheses(std::span<const Token> tokens, std::vector<Token>& out, const MacroStatements* macros) {
  // Most code has no parentheses that could go: then the tokens are copied as they are.
  bool candidate = false;
  for (std::size_t i = 1; i < tokens.size() && !candidate; ++i)
    candidate = tokens[i].is_punct("(") && (opens_list(tokens[i - 1]) || tokens[i - 1].is_identifier("return"));
  if (!candidate) {
    out.assign(tokens.begin(), tokens.end());
    return;
  }
  thread_local std::vector<bool> dropped;
  RedundantParentheses(tokens, macros, dropped).write(out);
}

void drop_body_braces(std::span<const Token> tokens, std::vector<Token>& out, const MacroStatements* macros) {
  thread_local std::vector<std::uint8_t> roles;
  thread_local std::vector<std::vector<Token>> scratch;
  BodyBraces(tokens, macros, roles, scratch).write(out);
}

}  // namespace kforecast::kernels
