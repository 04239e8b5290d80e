// SPDX-License-Identifier: Apache-2.0
#include "kernels/fingerprint.hpp"

#include <algorithm>
#include <vector>

#include "kernels/canonical_tokens.hpp"
#include "kernels/lexer.hpp"

namespace kforecast::kernels {
namespace {

constexpr std::uint64_t fnv_offset = 0xcbf29ce484222325ull;
constexpr std::uint64_t fnv_prime = 0x100000001b3ull;

std::uint64_t mix_byte(std::uint64_t hash, unsigned char byte) { return (hash ^ byte) * fnv_prime; }

// Kind and length delimit each token, so "ab" and "a" "b" differ.
std::uint64_t mix_token(std::uint64_t hash, const Token& t, TokenForm form) {
  hash = mix_byte(hash, static_cast<unsigned char>(t.kind));
  std::size_t size = 0;
  if (form == TokenForm::canonical)
    for_each_canonical_byte(t, [&](char) { ++size; });
  else
    size = t.text().size();
  for (std::size_t i = 0; i < sizeof size; ++i, size >>= 8)
    hash = mix_byte(hash, static_cast<unsigned char>(size & 0xff));
  if (form == TokenForm::canonical)
    for_each_canonical_byte(t, [&](char c) { hash = mix_byte(hash, static_cast<unsigned char>(c)); });
  else
    for (const char c : t.text()) hash = mix_byte(hash, static_cast<unsigned char>(c));
  return hash;
}

}  // namespace

std::uint64_t token_fingerprint(std::string_view source, Span span, FingerprintOptions options) {
  return token_fingerprint(source, span, {}, options);
}

std::uint64_t token_fingerprint(std::string_view source, Span span, std::span<const Span> left_out,
                                FingerprintOptions options) {
  const TokenForm form = options.form;
  const std::size_t begin = std::min(span.begin, source.size());
  const std::size_t end = std::clamp(span.end, begin, source.size());
  Lexer lexer(source.substr(begin, end - begin));
  // Kept from one fingerprint to the next on this thread: a revision takes thousands of them.
  thread_local std::vector<Token> tokens;
  thread_local CanonicalTokens canonical;
  tokens.clear();
  auto hole = left_out.begin();
  bool after_hole = false;
  for (Token t = lexer.next(); t.kind != TokenKind::end; t = lexer.next()) {
    const auto at = begin + static_cast<std::size_t>(t.text().data() - (source.data() + begin));
    while (hole != left_out.end() && hole->end <= at) ++hole;
    if (hole != left_out.end() && hole->begin <= at) {
      after_hole = true;
      continue;
    }
    // A member function left out takes the empty declaration after its body with it (`};`), as
    // the canonical form does where the body is read (canonical_tokens.hpp).
    const bool stray_semicolon = after_hole && form == TokenForm::canonical && t.is_punct(";");
    after_hole = false;
    if (!stray_semicolon) tokens.push_back(t);
  }
  if (form == TokenForm::canonical) canonical.read(tokens, options.macros);
  std::uint64_t hash = fnv_offset;
  for (const Token& t : form == TokenForm::canonical ? canonical.tokens() : std::span<const Token>(tokens))
    hash = mix_token(hash, t, form);
  // A final avalanche, so that nearby inputs do not give nearby fingerprints.
  hash ^= hash >> 33;
  hash *= 0xff51afd7ed558ccdull;
  hash ^= hash >> 33;
  return hash;
}

}  // namespace kforecast::kernels
