// SPDX-License-Identifier: Apache-2.0
#pragma once

// Small helpers over token ranges that the scanner's parts share.

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "kernels/scanner.hpp"
#include "kernels/token.hpp"

namespace kforecast::kernels {

// The tokens' texts, with one space wherever the source had whitespace or a comment between
// two of them: "template <int BM, typename T>" stays as written, a newline becomes a space.
std::string spaced_text(std::span<const Token> tokens);
// The same, appended to `text` as it is (no space before the first token).
void append_spaced_text(std::string& text, std::span<const Token> tokens);

// Words that never name a function, a parameter or a macro use: C++ keywords, fundamental
// types, and CUDA's specifiers and qualifiers.
bool is_keyword(std::string_view word);

// The byte span from the first byte of `first` to the last byte of `last`. Tokens that are
// not views of `source` (lexed from a copy) give an empty span.
Span span_of(std::string_view source, const Token& first, const Token& last);

// The index of the token that closes the bracket ( [ or { at `open`, counting all three kinds;
// tokens.size() when it is never closed.
std::size_t matching_close(std::span<const Token> tokens, std::size_t open);

// The index of the '>' (or '>>') that closes the '<' at `open`, skipping bracketed groups; or
// tokens.size() when a ';', '{', '}' or an unopened ')' comes first or more than `limit` tokens
// pass, which is how a comparison is told from template arguments.
std::size_t matching_angle(std::span<const Token> tokens, std::size_t open, std::size_t limit = 256);

}  // namespace kforecast::kernels
