// SPDX-License-Identifier: Apache-2.0
#pragma once

// SHA-256 (FIPS 180-4) for the capture's content addresses: blobs are named by their hash and
// modules are identified by their cubin's. Here because the injection library links nothing
// beyond libc and the C++ runtime.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace kforecast::capture::injection {

class Sha256 {
 public:
  void add(std::span<const std::byte> bytes);
  std::string hex();  // finishes the hash; add() after it starts nothing new

 private:
  void compress(const std::uint8_t* block);
  std::array<std::uint32_t, 8> m_state{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::array<std::uint8_t, 64> m_block{};
  std::size_t m_block_used = 0;
  std::uint64_t m_total_bytes = 0;
};

std::string sha256_hex(std::span<const std::byte> bytes);

}  // namespace kforecast::capture::injection
