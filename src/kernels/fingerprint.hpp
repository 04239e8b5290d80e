// SPDX-License-Identifier: Apache-2.0
#pragma once

// A fingerprint of the tokens in a span of source: equal when two versions differ only in
// comments, whitespace, line endings or line continuations between tokens; different (but for
// a 2^-64 chance) when any token differs. A later stage uses it to tell a kernel that changed
// only in its comments from one that really changed.

#include <cstdint>
#include <span>
#include <string_view>

#include "kernels/scanner.hpp"

namespace kforecast::kernels {

// The span is clamped to the source; an empty span has the fingerprint of no tokens.
std::uint64_t token_fingerprint(std::string_view source, Span span);

// The same, leaving out the tokens inside `left_out` (sorted by begin, not overlapping): a
// class's text without the bodies of its member functions, which are fingerprinted apart.
std::uint64_t token_fingerprint(std::string_view source, Span span, std::span<const Span> left_out);

}  // namespace kforecast::kernels
