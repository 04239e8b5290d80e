// SPDX-License-Identifier: Apache-2.0
#include "kernels/fingerprint.hpp"

#include <algorithm>

#include "kernels/lexer.hpp"

namespace kforecast::kernels {
namespace {

constexpr std::uint64_t fnv_offset = 0xcbf29ce484222325ull;
constexpr std::uint64_t fnv_prime = 0x100000001b3ull;

std::uint64_t mix_byte(std::uint64_t hash, unsigned char byte) { return (hash ^ byte) * fnv_prime; }

}  // namespace

std::uint64_t token_fingerprint(std::string_view source, Span span) { return token_fingerprint(source, span, {}); }

std::uint64_t token_fingerprint(std::string_view source, Span span, std::span<const Span> left_out) {
  const std::size_t begin = std::min(span.begin, source.size());
  const std::size_t end = std::clamp(span.end, begin, source.size());
  Lexer lexer(source.substr(begin, end - begin));
  std::uint64_t hash = fnv_offset;
  auto hole = left_out.begin();
  for (Token t = lexer.next(); t.kind != TokenKind::end; t = lexer.next()) {
    const auto at = begin + static_cast<std::size_t>(t.text().data() - (source.data() + begin));
    while (hole != left_out.end() && hole->end <= at) ++hole;
    if (hole != left_out.end() && hole->begin <= at) continue;
    // Kind and length delimit each token, so "ab" and "a" "b" differ.
    hash = mix_byte(hash, static_cast<unsigned char>(t.kind));
    for (std::size_t size = t.text().size(), i = 0; i < sizeof size; ++i, size >>= 8)
      hash = mix_byte(hash, static_cast<unsigned char>(size & 0xff));
    for (const char c : t.text()) hash = mix_byte(hash, static_cast<unsigned char>(c));
  }
  // A final avalanche, so that nearby inputs do not give nearby fingerprints.
  hash ^= hash >> 33;
  hash *= 0xff51afd7ed558ccdull;
  hash ^= hash >> 33;
  return hash;
}

}  // namespace kforecast::kernels
