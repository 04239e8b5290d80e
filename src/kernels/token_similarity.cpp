// SPDX-License-Identifier: Apache-2.0
#include "kernels/token_similarity.hpp"

#include <algorithm>

#include "kernels/lexer.hpp"

namespace kforecast::kernels {
namespace {

std::uint64_t token_hash(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
  return hash;
}

std::uint64_t combine(std::uint64_t a, std::uint64_t b) {
  return (a ^ (b + 0x9e3779b97f4a7c15ull + (a << 6) + (a >> 2)));
}

}  // namespace

TokenShingles token_shingles(std::string_view source, Span span) {
  const std::size_t begin = std::min(span.begin, source.size());
  const std::size_t end = std::clamp(span.end, begin, source.size());
  Lexer lexer(source.substr(begin, end - begin));
  std::vector<std::uint64_t> tokens;
  for (Token t = lexer.next(); t.kind != TokenKind::end && tokens.size() < most_tokens_read; t = lexer.next())
    tokens.push_back(token_hash(t.text()));
  TokenShingles shingles;
  if (tokens.size() < 3) {
    // Too short for a trigram: the tokens themselves, so "{}" and "{ x; }" still differ.
    shingles.hashes = tokens;
  } else {
    shingles.hashes.reserve(tokens.size() - 2);
    for (std::size_t i = 0; i + 2 < tokens.size(); ++i)
      shingles.hashes.push_back(combine(combine(tokens[i], tokens[i + 1]), tokens[i + 2]));
  }
  std::sort(shingles.hashes.begin(), shingles.hashes.end());
  shingles.hashes.erase(std::unique(shingles.hashes.begin(), shingles.hashes.end()), shingles.hashes.end());
  return shingles;
}

double jaccard(const TokenShingles& a, const TokenShingles& b) {
  if (a.hashes.empty() && b.hashes.empty()) return 1.0;
  std::size_t common = 0;
  for (auto i = a.hashes.begin(), j = b.hashes.begin(); i != a.hashes.end() && j != b.hashes.end();) {
    if (*i < *j) {
      ++i;
    } else if (*j < *i) {
      ++j;
    } else {
      ++common, ++i, ++j;
    }
  }
  const std::size_t together = a.hashes.size() + b.hashes.size() - common;
  return static_cast<double>(common) / static_cast<double>(together);
}

}  // namespace kforecast::kernels
