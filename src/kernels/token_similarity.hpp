// SPDX-License-Identifier: Apache-2.0
#pragma once

// How alike two pieces of code are, token by token: the Jaccard index of their token trigrams.
// Comments and whitespace do not count; renaming a variable touches only the trigrams around
// each use. Used to tell a kernel renamed and edited in one commit from one removed and another
// added.

#include <cstdint>
#include <string_view>
#include <vector>

#include "kernels/scanner.hpp"

namespace kforecast::kernels {

// The hashed trigrams of the tokens in a span, sorted and unique. Only the first
// `most_tokens_read` tokens are read, so one huge kernel costs no more than a large one.
struct TokenShingles {
  std::vector<std::uint64_t> hashes;
};

inline constexpr std::size_t most_tokens_read = 4096;

TokenShingles token_shingles(std::string_view source, Span span);

// |a ∩ b| / |a ∪ b|, in [0, 1]; two empty sets are alike (1).
double jaccard(const TokenShingles& a, const TokenShingles& b);

}  // namespace kforecast::kernels
