// SPDX-License-Identifier: Apache-2.0
#pragma once

// Tokens as they read whatever a code formatter did to them. clang-format and its like rewrite
// more than whitespace; each rewrite below is undone here, so that two texts that differ only by
// them give the same canonical tokens, and a commit that only reformats changes no kernel:
//   - `> >` closing two template argument lists (Standard: c++03) and `>>`: every `>>` is two `>`;
//   - the case of a number's letters and its digit separators (0xFFu, 0xffU, 1'000): a number
//     reads in lower case without separators, unless it has a user-defined suffix (1_KiB);
//   - the order of the specifiers before a declarator (const int / int const, static constexpr
//     / constexpr static, __device__ inline / inline __device__: QualifierAlignment): within a
//     run of specifier keywords and names, the keywords go first, sorted; names keep their order.
//     const and volatile do not move past an upper-case name (a macro may stand for `int*`,
//     and `const M p` is then not `M const p`);
//   - a string literal broken in two ("ab" as "a" "b": BreakStringLiterals) reads whole, where
//     no escape at the break would read otherwise ("\x1" "2" is not "\x12");
//   - a `;` after a function's body (RemoveSemicolon) is left out, and parentheses around a
//     whole argument, list item or returned value where they cannot matter (RemoveParentheses):
//     `f(a, (b + c))`, `return (a + b);` (an operator inside that no declaration holds, no comma
//     of its own, not in decltype nor in a macro call's arguments);
//   - braces around a body of one statement (InsertBraces, RemoveBracesLLVM): the body of an
//     if, else, for, while or do that is one statement reads without its braces, except where
//     that would change the meaning or may: an `else` after a body that ends in an `if` without
//     one (it would bind to that `if`), a body with a preprocessor line, a label or `case`, or
//     an upper-case call (a macro may expand to several statements).
// Sound for two texts that both compile, as a formatter's output does: `> >` and `>>` differ in
// meaning only where one of them does not compile. What a lower-case macro that expands to
// several statements does with braces around it is not known here: such a body, braced in one
// revision and not in the other, reads the same.
// What the canonical tokens are for: fingerprints, and texts compared whole (launch
// configurations, the definitions a launch names). A canonical token may view a static string
// (the halves of a `>>`) rather than the source: never take its offset in the source.

#include <cstdint>
#include <deque>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "kernels/scanner.hpp"
#include "kernels/token.hpp"

namespace kforecast::kernels {

// What a revision's macros tell of a call written as a statement, `NAME(args);` or `NAME;`:
// that it expands to one statement (an expression, or do { ... } while (0)), or to what may be
// several (`a; b`, or an `if` that an `else` after it would bind to). A name neither set holds
// is unknown: a call of an upper-case one keeps its braces.
struct MacroStatements {
  std::set<std::string, std::less<>> one_statement;
  std::set<std::string, std::less<>> several;

  // A name defined both ways (under #if and #else) counts as several.
  void add(const Macro& macro);
};

// The canonical tokens of a token sequence. Each views the source, a static string (the halves
// of a `>>`) or this object (string literals joined), so it lives as long as both do and until
// the next read().
class CanonicalTokens {
 public:
  // Reads `tokens` in place of what it held (memory reused).
  void read(std::span<const Token> tokens, const MacroStatements* macros = nullptr);
  std::span<const Token> tokens() const { return m_tokens; }

 private:
  void split_and_join(std::span<const Token> tokens, std::vector<Token>& out);

  std::vector<Token> m_tokens;
  std::vector<Token> m_split, m_ordered;  // the passes' own, kept for their memory
  std::deque<std::string> m_joined;       // string literals joined from adjacent ones
};

// A token's bytes as they compare: a number in lower case without digit separators, any other
// token as written. Calls `byte` for each.
template <class ByteSink>
void for_each_canonical_byte(const Token& token, ByteSink&& byte) {
  const std::string_view text = token.text();
  const bool fold = token.kind == TokenKind::number && text.find('_') == std::string_view::npos;
  for (const char c : text) {
    if (!fold) {
      byte(c);
    } else if (c != '\'') {
      byte(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
    }
  }
}

// The canonical tokens of `tokens`, joined by single spaces (directive brackets left out):
// "grid , 64" whether the source wrote "grid,64" or "grid,\n    64".
std::string canonical_text(std::span<const Token> tokens);

}  // namespace kforecast::kernels
