// SPDX-License-Identifier: Apache-2.0
#include "bench/guard_zones.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace kforecast::bench {
namespace {

std::size_t round_up(std::size_t value, std::size_t multiple) { return (value + multiple - 1) / multiple * multiple; }

// splitmix64's finaliser: neighbouring addresses give unrelated bytes, so no store of a plain
// value (0, 1.0f, a copied neighbour) is likely to match a run of them.
std::byte pattern_byte(std::uint64_t address) {
  std::uint64_t z = address + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return static_cast<std::byte>((z ^ (z >> 31)) & 0xff);
}

}  // namespace

GuardedLayout guarded_layout(std::size_t buffer_bytes, std::size_t zone_bytes) {
  const std::size_t zone = round_up(std::max<std::size_t>(zone_bytes, 1), device_alignment);
  GuardedLayout layout;
  layout.buffer_offset = zone;
  layout.buffer_bytes = buffer_bytes;
  layout.back_offset = zone + buffer_bytes;
  layout.allocation_bytes = zone + round_up(buffer_bytes, device_alignment) + zone;
  layout.back_bytes = layout.allocation_bytes - layout.back_offset;
  return layout;
}

std::vector<std::byte> guard_pattern(std::uint64_t address, std::size_t bytes) {
  std::vector<std::byte> pattern(bytes);
  for (std::size_t i = 0; i < bytes; ++i) pattern[i] = pattern_byte(address + i);
  return pattern;
}

std::optional<ZoneDamage> check_zone(ZoneSide side, std::uint64_t address, std::span<const std::byte> read_back) {
  std::optional<std::size_t> first, last;
  std::size_t changed = 0;
  for (std::size_t i = 0; i < read_back.size(); ++i) {
    if (read_back[i] == pattern_byte(address + i)) continue;
    if (!first) first = i;
    last = i;
    ++changed;
  }
  if (!first) return std::nullopt;
  // The front zone ends at the buffer's first byte, the back zone starts after its last.
  const std::size_t reach = side == ZoneSide::before ? read_back.size() - *first : *last + 1;
  return ZoneDamage{side, reach, changed};
}

std::string ZoneDamage::describe(std::string_view buffer) const {
  const std::string_view where = side == ZoneSide::before ? "before" : "past";
  const auto bytes = [](std::size_t n) { return fmt::format("{} byte{}", n, n == 1 ? "" : "s"); };
  if (changed == reach) return fmt::format("wrote {} {} '{}'", bytes(changed), where, buffer);
  return fmt::format("wrote {} up to {} {} '{}'", bytes(changed), bytes(reach), where, buffer);
}

}  // namespace kforecast::bench
