// SPDX-License-Identifier: Apache-2.0
#include "capture/injection/allocation_table.hpp"

namespace kforecast::capture::injection {

void AllocationTable::add(std::uint64_t base, std::uint64_t bytes) {
  if (bytes == 0) return;
  // A base seen again was freed by a call the library does not follow (a pool trimmed, a
  // mapping torn down by another route): the newest size is the true one.
  m_by_base[base] = bytes;
}

void AllocationTable::remove(std::uint64_t base) { m_by_base.erase(base); }

std::optional<Allocation> AllocationTable::find(std::uint64_t address) const {
  auto it = m_by_base.upper_bound(address);
  if (it == m_by_base.begin()) return std::nullopt;
  --it;
  if (address - it->first >= it->second) return std::nullopt;
  return Allocation{.base = it->first, .bytes = it->second};
}

}  // namespace kforecast::capture::injection
