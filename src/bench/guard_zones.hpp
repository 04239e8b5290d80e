// SPDX-License-Identifier: Apache-2.0
#pragma once

// Guard zones around the runner's device buffers, so a kernel that writes a little past an
// argument (`y[n]`, `i <= n`) is caught instead of landing unseen in the next allocation. Each
// buffer is allocated as one block: a front zone, the buffer, a back zone. Both zones hold a
// known pattern and are read back after every correctness launch; a changed byte names the
// buffer, the side of it and how far from its edge the write reached. What this cannot see: a
// write farther than a zone reaches, and a write that stores exactly the pattern's byte (the
// pattern depends on the address, so a stray copy of one buffer's zone into another's differs).
// Pure: the runner (pair_run.cpp) does the allocation, upload and read-back.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kforecast::bench {

// cuMemAlloc's alignment: the front zone is a multiple of it, so the kernel's pointer is as
// aligned as an allocation of its own would be.
inline constexpr std::size_t device_alignment = 256;

// A whole block of 1024 threads storing one 4-byte element each past the end stays inside it.
inline constexpr std::size_t guard_zone_bytes = 4096;

struct GuardedLayout {
  std::size_t allocation_bytes = 0;  // front zone + buffer + back zone, what is allocated
  std::size_t buffer_offset = 0;     // the front zone's size: where the kernel's pointer starts
  std::size_t buffer_bytes = 0;
  std::size_t back_offset = 0;  // right after the buffer's last byte
  std::size_t back_bytes = 0;   // the zone, plus the padding that keeps the allocation aligned

  std::size_t front_bytes() const { return buffer_offset; }
};

// `zone_bytes` is rounded up to device_alignment; zero-byte buffers get both zones too.
GuardedLayout guarded_layout(std::size_t buffer_bytes, std::size_t zone_bytes = guard_zone_bytes);

// The bytes a zone starting at device address `address` holds: a hash of each byte's address.
std::vector<std::byte> guard_pattern(std::uint64_t address, std::size_t bytes);

enum class ZoneSide { before, after };

// A zone whose bytes changed. `reach` counts from the buffer's edge to the farthest changed byte
// (1: the byte right next to it); `changed` counts the bytes that differ from the pattern.
struct ZoneDamage {
  ZoneSide side = ZoneSide::after;
  std::size_t reach = 0;
  std::size_t changed = 0;

  // "wrote 4 bytes past 'y'", "wrote 4 bytes up to 404 bytes past 'y'", "wrote 8 bytes before 'x'"
  std::string describe(std::string_view buffer) const;
};

// Compares a zone read back from the device with the pattern written at `address`; nullopt when
// the zone is intact. `read_back` must be as long as the zone.
std::optional<ZoneDamage> check_zone(ZoneSide side, std::uint64_t address, std::span<const std::byte> read_back);

}  // namespace kforecast::bench
