// SPDX-License-Identifier: Apache-2.0
#include "capture/injection/sha256.hpp"

#include <algorithm>
#include <bit>

namespace kforecast::capture::injection {
namespace {

constexpr std::array<std::uint32_t, 64> round_constants = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

}  // namespace

void Sha256::compress(const std::uint8_t* block) {
  std::array<std::uint32_t, 64> w{};
  for (std::size_t i = 0; i < 16; ++i)
    w[i] = (std::uint32_t{block[4 * i]} << 24) | (std::uint32_t{block[4 * i + 1]} << 16) |
           (std::uint32_t{block[4 * i + 2]} << 8) | std::uint32_t{block[4 * i + 3]};
  for (std::size_t i = 16; i < 64; ++i) {
    const std::uint32_t s0 = std::rotr(w[i - 15], 7) ^ std::rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const std::uint32_t s1 = std::rotr(w[i - 2], 17) ^ std::rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  auto [a, b, c, d, e, f, g, h] = m_state;
  for (std::size_t i = 0; i < 64; ++i) {
    const std::uint32_t t1 =
        h + (std::rotr(e, 6) ^ std::rotr(e, 11) ^ std::rotr(e, 25)) + ((e & f) ^ (~e & g)) + round_constants[i] + w[i];
    const std::uint32_t t2 = (std::rotr(a, 2) ^ std::rotr(a, 13) ^ std::rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  const std::array<std::uint32_t, 8> add = {a, b, c, d, e, f, g, h};
  for (std::size_t i = 0; i < 8; ++i) m_state[i] += add[i];
}

void Sha256::add(std::span<const std::byte> bytes) {
  m_total_bytes += bytes.size();
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::size_t left = bytes.size();
  // Whole blocks straight from the input: a capture hashes up to the whole byte budget.
  while (left > 0) {
    if (m_block_used == 0 && left >= m_block.size()) {
      compress(data);
      data += m_block.size();
      left -= m_block.size();
      continue;
    }
    const std::size_t take = std::min(left, m_block.size() - m_block_used);
    std::copy_n(data, take, m_block.data() + m_block_used);
    m_block_used += take;
    data += take;
    left -= take;
    if (m_block_used == m_block.size()) {
      compress(m_block.data());
      m_block_used = 0;
    }
  }
}

std::string Sha256::hex() {
  const std::uint64_t bits = m_total_bytes * 8;
  m_block[m_block_used++] = 0x80;
  if (m_block_used > 56) {
    while (m_block_used < 64) m_block[m_block_used++] = 0;
    compress(m_block.data());
    m_block_used = 0;
  }
  while (m_block_used < 56) m_block[m_block_used++] = 0;
  for (int i = 7; i >= 0; --i) m_block[m_block_used++] = static_cast<std::uint8_t>(bits >> (8 * i));
  compress(m_block.data());
  m_block_used = 0;
  constexpr char digits[] = "0123456789abcdef";
  std::string text;
  for (std::uint32_t word : m_state)
    for (int shift = 28; shift >= 0; shift -= 4) text.push_back(digits[(word >> shift) & 0xf]);
  return text;
}

std::string sha256_hex(std::span<const std::byte> bytes) {
  Sha256 hash;
  hash.add(bytes);
  return hash.hex();
}

}  // namespace kforecast::capture::injection
