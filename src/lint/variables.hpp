// SPDX-License-Identifier: Apache-2.0
#pragma once

// The variables of a function body by C++ scope: each declaration (int i = ..., float v[8],
// the second counter of `for (int i = 0, j = 0; ...)`, `for (auto& x : xs)`) is a variable of
// its own, visible from its name to the end of its block or for statement, and every identifier
// of the body resolves to the innermost declaration in view, or to a free name (a parameter, a
// global, a macro). Two loops that both declare `i` have two variables, so a fact about one (it
// starts at threadIdx.x) says nothing about the other. Token-level: declarations are recognised
// at the start of a statement as a type followed by a name and one of = ; , [ ( { :.

#include <cstddef>
#include <cstdint>
#include <map>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/token.hpp"

namespace kforecast::lint {

using kernels::Token;

struct Variable {
  std::string_view name;
  // Token index of the declarator's name; `free_name` for a name not declared in the body.
  std::size_t declared_at = SIZE_MAX;
  std::size_t scope_end = 0;                 // one past its last visible token
  std::size_t type_begin = 0, type_end = 0;  // the declaration's type tokens ([const] float*, unsigned int)
  bool array = false;                        // declared NAME[...]
  bool free() const { return declared_at == SIZE_MAX; }
};

// A range of tokens [begin, end): an expression assigned to a variable; `compound` for the right
// side of x += ..., x *= ... (the old value is kept in the new one).
struct TokenRange {
  std::size_t begin = 0, end = 0;
  bool compound = false;
};

class Variables {
 public:
  static constexpr std::size_t none = SIZE_MAX;

  // `for_headers` are the token ranges [begin, end) of the for statements' parentheses' insides,
  // each with the end of its statement: a declaration there is visible to that end.
  struct ForHeader {
    std::size_t header_begin, header_end, statement_end;
  };
  Variables(std::span<const Token> tokens, std::span<const ForHeader> for_headers);

  // The variable the identifier at token `at` names; none for anything else (a member after
  // . -> or ::, a keyword, a function called by name).
  std::size_t at(std::size_t index) const { return index < m_of_token.size() ? m_of_token[index] : none; }
  const Variable& operator[](std::size_t id) const { return m_variables[id]; }
  std::size_t size() const { return m_variables.size(); }

  // What is assigned to the variable: its initialiser, every `=`'s right side and every compound
  // assignment's (marked `compound`).
  const std::vector<TokenRange>& assigned(std::size_t id) const { return m_assigned[id]; }
  // Token indices where the variable is changed other than by `=` or initialisation: x += 1, ++x.
  const std::vector<std::size_t>& updates(std::size_t id) const { return m_updates[id]; }
  // Whether token range [begin, end) changes the variable (an assignment, ++, --, op=).
  bool changed_in(std::size_t id, std::size_t begin, std::size_t end) const;

 private:
  void declare(std::size_t statement, const std::vector<std::size_t>& block_end,
               std::span<const ForHeader> for_headers);
  std::size_t resolve(std::size_t index) const;
  void record_assignments();

  std::span<const Token> m_tokens;
  std::vector<Variable> m_variables;
  std::map<std::string_view, std::vector<std::size_t>, std::less<>> m_declared;  // by name, in order
  std::map<std::string_view, std::size_t, std::less<>> m_free;
  std::vector<std::size_t> m_of_token;
  std::vector<std::vector<TokenRange>> m_assigned;
  std::vector<std::vector<std::size_t>> m_updates;
  std::vector<std::size_t> m_changes;  // token indices of every change, for changed_in
  std::vector<std::size_t> m_changed_variable;
};

}  // namespace kforecast::lint
