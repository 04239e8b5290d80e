// SPDX-License-Identifier: Apache-2.0
#pragma once

// The scanner's first pass: takes the directives out of the token stream. It records #define
// and #include, honours #if 0 and #if 1 (with their #elif and #else branches) and treats every
// other condition as unknown, keeping all of its branches. Macros are recorded, not expanded.

#include <span>
#include <string_view>
#include <vector>

#include "kernels/scanner.hpp"
#include "kernels/token.hpp"

namespace kforecast::kernels {

struct Preprocessed {
  std::vector<Token> code;  // tokens outside directives and outside dead branches, in order
  // Identifiers in the conditions of #if, #elif, #ifdef, #ifndef and in #pragma lines of live
  // code, in order: a function whose body holds `#ifdef USE_FAST_MATH` uses that macro.
  std::vector<Token> condition_identifiers;
  std::vector<Macro> macros;
  std::vector<Include> includes;
};

// `storage` lends its memory to Preprocessed::code, so that scanning many files does not fault
// in fresh pages for every one of them.
Preprocessed preprocess(std::string_view source, std::vector<Token> storage = {});
// The same from `tokens`, every token of `source` as lex(source) gives them: the same result
// without lexing again.
Preprocessed preprocess(std::string_view source, std::span<const Token> tokens, std::vector<Token> storage = {});

}  // namespace kforecast::kernels
