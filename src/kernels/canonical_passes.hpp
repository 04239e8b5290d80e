// SPDX-License-Identifier: Apache-2.0
#pragma once

// The passes of the canonical form (canonical_tokens.hpp) that read statements, and what they
// share with the others. Internal to canonical_tokens.cpp and canonical_statements.cpp.

#include <span>
#include <string_view>
#include <vector>

#include "kernels/canonical_tokens.hpp"
#include "kernels/token.hpp"

namespace kforecast::kernels {

// An upper-case name of two or more characters reads as a macro (T, N: template parameters).
bool looks_like_macro(std::string_view name);

inline bool is_directive(const Token& t) {
  return t.kind == TokenKind::directive_begin || t.kind == TokenKind::directive_end;
}

// Parentheses around a whole item of a list or a returned value, where they cannot matter.
void drop_redundant_parentheses(std::span<const Token> tokens, std::vector<Token>& out, const MacroStatements* macros);

// The braces around a body of one statement, where leaving them out cannot change its meaning,
// and a `;` after a function's body.
void drop_body_braces(std::span<const Token> tokens, std::vector<Token>& out, const MacroStatements* macros);

}  // namespace kforecast::kernels
