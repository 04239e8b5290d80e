// SPDX-License-Identifier: Apache-2.0
#pragma once

// A fingerprint of the tokens in a span of source: equal when two versions differ only in
// comments, whitespace, line endings or line continuations between tokens, and, read in
// canonical form (canonical_tokens.hpp), in what a code formatter rewrites (braces around one
// statement, the order of specifiers, `> >`, a number's case); different (but for a 2^-64
// chance) when any other token differs. A later stage uses it to tell a kernel that changed only
// in its comments or its formatting from one that really changed.

#include <cstdint>
#include <span>
#include <string_view>

#include "kernels/canonical_tokens.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::kernels {

// Whether tokens are read as written or in canonical form, and what the revision's macros tell
// the canonical form (canonical_tokens.hpp: which calls may stand for several statements).
enum class TokenForm { canonical, as_written };
struct FingerprintOptions {
  TokenForm form = TokenForm::canonical;
  const MacroStatements* macros = nullptr;
};

// The span is clamped to the source; an empty span has the fingerprint of no tokens.
std::uint64_t token_fingerprint(std::string_view source, Span span, FingerprintOptions options = {});

// The same, leaving out the tokens inside `left_out` (sorted by begin, not overlapping): a
// class's text without the bodies of its member functions, which are fingerprinted apart.
std::uint64_t token_fingerprint(std::string_view source, Span span, std::span<const Span> left_out,
                                FingerprintOptions options = {});

}  // namespace kforecast::kernels
