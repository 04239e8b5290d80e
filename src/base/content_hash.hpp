// SPDX-License-Identifier: Apache-2.0
#pragma once

// A cache key from several fields: two independent 64-bit FNV-1a streams give 128 bits, stable
// across runs and machines (unlike std::hash). Every field is length-prefixed, so ("ab", "c")
// and ("a", "bc") differ. For cache file names, not for security.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace kforecast {

class ContentHasher {
 public:
  void add(std::string_view field) {
    mix(fmt::format("{}:", field.size()));
    mix(field);
  }
  std::string hex() const { return fmt::format("{:016x}{:016x}", m_state[0], m_state[1]); }

 private:
  void mix(std::string_view bytes) {
    for (unsigned char byte : bytes) {
      m_state[0] = (m_state[0] ^ byte) * 0x100000001b3ULL;
      m_state[1] = (m_state[1] ^ byte) * 0x100000001b3ULL;
      m_state[1] ^= m_state[1] >> 29;
    }
  }
  std::array<std::uint64_t, 2> m_state{0xcbf29ce484222325ULL, 0x84222325cbf29ce4ULL};
};

}  // namespace kforecast
