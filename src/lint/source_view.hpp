// SPDX-License-Identifier: Apache-2.0
#pragma once

// One CUDA source as the matchers see it: its code tokens (comments, strings' insides and
// directives are not code: a rule never fires on them; nor is a preprocessor branch a CUDA build
// skips, conditionals.hpp), what the scanner found in it, and the token ranges of each function's
// signature and body, with columns for diagnostics.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kernels/scanner.hpp"
#include "kernels/token.hpp"
#include "lint/conditionals.hpp"

namespace kforecast::lint {

using kernels::Token;

class SourceView {
 public:
  explicit SourceView(std::string_view text);
  SourceView(const SourceView&) = delete;
  SourceView& operator=(const SourceView&) = delete;

  std::string_view text() const { return m_text; }
  std::span<const Token> code() const { return m_code; }
  const kernels::ScannedSource& scanned() const { return m_scanned; }

  // The source text from token `begin` of `tokens` (a span of this view's tokens) to the end of
  // token `end - 1`, as written; empty where the range is.
  std::string text_of(std::span<const Token> tokens, std::size_t begin, std::size_t end) const;

  // Whether byte `offset` lies in code a CUDA build compiles (not in a dead preprocessor branch).
  bool live(std::size_t offset) const { return !in_dead_branch(m_live, offset); }
  // Whether two byte offsets lie in different branches of one #if this file cannot settle.
  bool alternatives(std::size_t a, std::size_t b) const { return in_alternative_branches(m_live, a, b); }

  // The code tokens whose first byte lies in the span.
  std::span<const Token> tokens_in(const kernels::Span& span) const;

  std::size_t offset(const Token& token) const { return static_cast<std::size_t>(token.text().data() - m_text.data()); }
  // 1-based line and column of a byte offset.
  std::uint32_t line_of(std::size_t offset) const;
  std::uint32_t column_of(std::size_t offset) const;
  // The text of a 1-based line, without its line ending; empty past the end.
  std::string_view line_text(std::uint32_t line) const;

  // The number a name stands for, where this source defines it as a macro (#define TILE 32,
  // #define BLOCK (8 * WARP_SIZE)) or a const or constexpr integer (constexpr int kWarps = 4;).
  // A macro defined in live branches with different values (#ifdef FAST / #else) has none.
  std::optional<std::int64_t> macro_number(std::string_view name) const;
  // The value of an integer constant expression over literals and the names above
  // ("8*WARP_SIZE", "16 * 16"); nullopt where any part is not known here (a template
  // parameter, a macro from another file, a cast): callers then stay silent rather than guess.
  std::optional<std::int64_t> constant_value(std::string_view expression) const;

 private:
  std::optional<std::int64_t> constant_value(std::string_view expression, int depth) const;
  std::optional<std::int64_t> named_constant(std::string_view name, int depth) const;

  std::string_view m_text;
  LiveCode m_live;
  std::span<const Token> m_code;
  kernels::ScannedSource m_scanned;
  std::vector<const kernels::Macro*> m_macros;  // the live ones
  std::vector<std::size_t> m_line_starts;
};

// Source text cut to fit a one-line message: at most `limit` bytes, "..." where cut.
std::string clipped(std::string text, std::size_t limit = 40);

// An integer literal's value ("32", "0x20", "256u", "1'024"), if the token is one.
std::optional<std::int64_t> integer_literal(const Token& token);

}  // namespace kforecast::lint
