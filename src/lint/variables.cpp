// SPDX-License-Identifier: Apache-2.0
#include "lint/variables.hpp"

#include <algorithm>
#include <array>

#include "kernels/token_text.hpp"

namespace kforecast::lint {
namespace {

// Words that start a statement that is not a declaration, or cannot be a variable's type.
constexpr std::array<std::string_view, 33> statement_words{
    "return",   "if",    "else",     "for",    "while",         "do",        "switch",    "case",     "default",
    "goto",     "break", "continue", "delete", "new",           "throw",     "sizeof",    "using",    "typedef",
    "template", "asm",   "__asm__",  "__asm",  "static_assert", "namespace", "co_return", "co_await", "co_yield",
    "operator", "this",  "true",     "false",  "nullptr",       "friend"};

// Attributes written between the type and the name (__align__(16)), with their arguments.
constexpr std::array<std::string_view, 4> attribute_words{"__align__", "alignas", "__attribute__", "__declspec"};

bool is_statement_word(std::string_view word) {
  return std::ranges::find(statement_words, word) != statement_words.end();
}

// What may follow a declarator's name: its initialiser, the next declarator, an array bound, the
// end of the declaration, or the ':' of a range-for.
bool follows_declarator(const Token& token) {
  for (std::string_view punct : {"=", ";", ",", "[", "(", "{", ":"})
    if (token.is_punct(punct)) return true;
  return false;
}

bool is_assignment(const Token& token) {
  if (token.kind != kernels::TokenKind::punctuation) return false;
  const std::string_view text = token.text();
  return text == "=" || text == "+=" || text == "-=" || text == "*=" || text == "/=" || text == "%=" || text == "&=" ||
         text == "|=" || text == "^=" || text == "<<=" || text == ">>=";
}

// The end of the expression starting at `at`: the first ',' ';' or unbalanced closing bracket.
std::size_t expression_stop(std::span<const Token> tokens, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.is_punct("(") || t.is_punct("[") || t.is_punct("{")) ++depth;
    if ((t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) && depth-- == 0) return i;
    if (depth == 0 && (t.is_punct(",") || t.is_punct(";"))) return i;
  }
  return tokens.size();
}

}  // namespace

Variables::Variables(std::span<const Token> tokens, std::span<const ForHeader> for_headers)
    : m_tokens(tokens), m_of_token(tokens.size(), none) {
  const std::size_t n = tokens.size();
  // The closing brace of the innermost block around each token: a declaration's scope.
  std::vector<std::size_t> block_end(n, n);
  {
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < n; ++i) {
      if (!open.empty()) block_end[i] = open.back();
      if (tokens[i].is_punct("{")) {
        const std::size_t close = kernels::matching_close(tokens, i);
        open.push_back(close);
      } else if (tokens[i].is_punct("}") && !open.empty()) {
        open.pop_back();
      }
    }
  }
  // Statement starts: after ; { } and a control statement's header or keyword, and the first
  // clause of a for header.
  std::vector<bool> starts(n + 1, false);
  if (n > 0) starts[tokens[0].is_punct("{") ? 1 : 0] = true;
  for (std::size_t i = 0; i < n; ++i) {
    const Token& t = tokens[i];
    if (t.is_punct(";") || t.is_punct("{") || t.is_punct("}") || t.is_identifier("else") || t.is_identifier("do"))
      starts[i + 1] = true;
    const bool headed =
        t.is_identifier("if") || t.is_identifier("for") || t.is_identifier("while") || t.is_identifier("switch");
    if (headed && i + 1 < n && tokens[i + 1].is_punct("(")) {
      if (t.is_identifier("for")) starts[i + 2] = true;
      starts[std::min(n, kernels::matching_close(tokens, i + 1) + 1)] = true;
    }
  }
  for (std::size_t s = 0; s < n; ++s)
    if (starts[s]) declare(s, block_end, for_headers);
  for (std::size_t i = 0; i < n; ++i)
    if (m_of_token[i] == none) m_of_token[i] = resolve(i);
  record_assignments();
}

void Variables::declare(std::size_t statement, const std::vector<std::size_t>& block_end,
                        std::span<const ForHeader> for_headers) {
  const std::size_t n = m_tokens.size();
  std::size_t scope_end = statement < n ? block_end[statement] : n;
  for (const auto& header : for_headers)
    if (header.header_begin == statement) scope_end = header.statement_end;
  // The type: names (with :: and <...>), then *, &, && and qualifiers.
  std::size_t k = statement;
  int type_words = 0;
  std::size_t name = none;
  while (k < n) {
    const Token& t = m_tokens[k];
    if (t.is_identifier()) {
      if (is_statement_word(t.text())) return;
      if (std::ranges::find(attribute_words, t.text()) != attribute_words.end() && k + 1 < n &&
          m_tokens[k + 1].is_punct("(")) {
        k = kernels::matching_close(m_tokens, k + 1) + 1;
        continue;
      }
      // A name after :: is qualified (cg::sync(block) is a call), never a declarator.
      const bool qualified = k > statement && m_tokens[k - 1].is_punct("::");
      if (type_words > 0 && !qualified && !kernels::is_keyword(t.text()) && k + 1 < n &&
          follows_declarator(m_tokens[k + 1])) {
        name = k;
        break;
      }
      ++type_words;
      ++k;
    } else if (type_words > 0 && t.is_punct("<")) {
      const std::size_t close = kernels::matching_angle(m_tokens, k);
      if (close >= n) return;
      k = close + 1;
    } else if (t.is_punct("::") || (type_words > 0 && (t.is_punct("*") || t.is_punct("&") || t.is_punct("&&")))) {
      ++k;  // a qualified name's '::', or a pointer or reference declarator
    } else {
      return;
    }
  }
  if (name == none) return;
  const std::size_t type_end = name;
  const auto add = [&](std::size_t at) {
    Variable variable{m_tokens[at].text(), at,       scope_end,
                      statement,           type_end, at + 1 < n && m_tokens[at + 1].is_punct("[")};
    m_declared[variable.name].push_back(m_variables.size());
    m_of_token[at] = m_variables.size();
    m_variables.push_back(variable);
  };
  add(name);
  // Further declarators of the same statement: int i = 0, *p, v[4];
  int depth = 0;
  for (std::size_t i = name + 1; i < n; ++i) {
    const Token& t = m_tokens[i];
    if (t.is_punct("(") || t.is_punct("[") || t.is_punct("{")) ++depth;
    if ((t.is_punct(")") || t.is_punct("]") || t.is_punct("}")) && depth-- == 0) break;
    if (depth == 0 && t.is_punct(";")) break;
    if (depth != 0 || !t.is_punct(",")) continue;
    std::size_t next = i + 1;
    while (next < n && (m_tokens[next].is_punct("*") || m_tokens[next].is_punct("&"))) ++next;
    if (next + 1 < n && m_tokens[next].is_identifier() && follows_declarator(m_tokens[next + 1]) &&
        !kernels::is_keyword(m_tokens[next].text()))
      add(next);
  }
}

std::size_t Variables::resolve(std::size_t index) const {
  const Token& t = m_tokens[index];
  if (!t.is_identifier() || kernels::is_keyword(t.text()) || is_statement_word(t.text())) return none;
  if (index > 0 &&
      (m_tokens[index - 1].is_punct(".") || m_tokens[index - 1].is_punct("->") || m_tokens[index - 1].is_punct("::")))
    return none;
  if (index + 1 < m_tokens.size() && m_tokens[index + 1].is_punct("::")) return none;
  if (auto it = m_declared.find(t.text()); it != m_declared.end())
    for (auto id = it->second.rbegin(); id != it->second.rend(); ++id) {
      const Variable& v = m_variables[*id];
      if (v.declared_at <= index && index < v.scope_end) return *id;
    }
  // A name called (f(x)) that no declaration in view gives is a function, not a variable.
  if (index + 1 < m_tokens.size() && m_tokens[index + 1].is_punct("(")) return none;
  auto it = m_free.find(t.text());
  return it == m_free.end() ? none : it->second;
}

void Variables::record_assignments() {
  // Free names get their variable on first use, so that every use of a parameter shares one.
  for (std::size_t i = 0; i < m_tokens.size(); ++i) {
    if (m_of_token[i] != none || !m_tokens[i].is_identifier()) continue;
    const Token& t = m_tokens[i];
    if (kernels::is_keyword(t.text()) || is_statement_word(t.text())) continue;
    if (i > 0 && (m_tokens[i - 1].is_punct(".") || m_tokens[i - 1].is_punct("->") || m_tokens[i - 1].is_punct("::")))
      continue;
    if ((i + 1 < m_tokens.size() && (m_tokens[i + 1].is_punct("::") || m_tokens[i + 1].is_punct("("))) ||
        (m_declared.contains(t.text()) && resolve(i) != none))
      continue;
    auto [it, added] = m_free.try_emplace(t.text(), m_variables.size());
    if (added) m_variables.push_back(Variable{t.text(), SIZE_MAX, m_tokens.size(), 0, 0, false});
    m_of_token[i] = it->second;
  }
  m_assigned.assign(m_variables.size(), {});
  m_updates.assign(m_variables.size(), {});
  const std::size_t n = m_tokens.size();
  const auto change = [&](std::size_t id, std::size_t at) {
    m_changes.push_back(at);
    m_changed_variable.push_back(id);
  };
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t id = m_of_token[i];
    if (id == none) continue;
    const Variable& v = m_variables[id];
    // *p = v stores through p; it does not assign p.
    const bool dereferenced =
        v.declared_at != i && i > 0 && m_tokens[i - 1].is_punct("*") &&
        (i < 2 || !(m_tokens[i - 2].is_identifier() || m_tokens[i - 2].is_punct(")") || m_tokens[i - 2].is_punct("]") ||
                    m_tokens[i - 2].kind == kernels::TokenKind::number));
    if (dereferenced) continue;
    if (i + 1 < n && is_assignment(m_tokens[i + 1])) {
      const std::size_t end = expression_stop(m_tokens, i + 2);
      const bool compound = !m_tokens[i + 1].is_punct("=");
      m_assigned[id].push_back({i + 2, end, compound});
      if (compound) m_updates[id].push_back(i);
      change(id, i);
    } else if (v.declared_at == i && i + 1 < n && (m_tokens[i + 1].is_punct("(") || m_tokens[i + 1].is_punct("{"))) {
      m_assigned[id].push_back({i + 2, kernels::matching_close(m_tokens, i + 1)});
      change(id, i);
    } else if (v.declared_at == i && i + 1 < n && m_tokens[i + 1].is_punct(":")) {
      m_assigned[id].push_back({i + 2, expression_stop(m_tokens, i + 2)});  // for (auto x : xs)
      change(id, i);
    } else if ((i + 1 < n && (m_tokens[i + 1].is_punct("++") || m_tokens[i + 1].is_punct("--"))) ||
               (i > 0 && (m_tokens[i - 1].is_punct("++") || m_tokens[i - 1].is_punct("--")))) {
      m_updates[id].push_back(i);
      change(id, i);
    }
  }
}

bool Variables::changed_in(std::size_t id, std::size_t begin, std::size_t end) const {
  for (std::size_t k = 0; k < m_changes.size(); ++k)
    if (m_changed_variable[k] == id && m_changes[k] >= begin && m_changes[k] < end) return true;
  return false;
}

}  // namespace kforecast::lint
