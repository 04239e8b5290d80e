// SPDX-License-Identifier: Apache-2.0
#pragma once

// Bounds-checked little-endian reads from untrusted bytes. Every cubin field goes through these:
// a read that would pass the end is nullopt, never a read out of bounds, whatever the offset.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace kforecast::cubin {

// The `length` bytes at `offset`, or nullopt where they do not all lie inside `bytes`. Written
// so that no sum can overflow: huge offsets and lengths are refused, not wrapped.
inline std::optional<std::span<const std::byte>> byte_range(std::span<const std::byte> bytes, std::uint64_t offset,
                                                            std::uint64_t length) {
  if (offset > bytes.size() || length > bytes.size() - offset) return std::nullopt;
  return bytes.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
}

template <class Unsigned>
std::optional<Unsigned> read_little_endian(std::span<const std::byte> bytes, std::uint64_t offset) {
  const auto field = byte_range(bytes, offset, sizeof(Unsigned));
  if (!field) return std::nullopt;
  Unsigned value = 0;
  for (std::size_t i = sizeof(Unsigned); i-- > 0;)
    value = static_cast<Unsigned>((value << 8) | static_cast<Unsigned>(std::to_integer<std::uint8_t>((*field)[i])));
  return value;
}

inline std::optional<std::uint8_t> read_u8(std::span<const std::byte> bytes, std::uint64_t offset) {
  return read_little_endian<std::uint8_t>(bytes, offset);
}
inline std::optional<std::uint16_t> read_u16(std::span<const std::byte> bytes, std::uint64_t offset) {
  return read_little_endian<std::uint16_t>(bytes, offset);
}
inline std::optional<std::uint32_t> read_u32(std::span<const std::byte> bytes, std::uint64_t offset) {
  return read_little_endian<std::uint32_t>(bytes, offset);
}
inline std::optional<std::uint64_t> read_u64(std::span<const std::byte> bytes, std::uint64_t offset) {
  return read_little_endian<std::uint64_t>(bytes, offset);
}

}  // namespace kforecast::cubin
