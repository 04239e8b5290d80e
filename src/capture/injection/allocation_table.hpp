// SPDX-License-Identifier: Apache-2.0
#pragma once

// The device allocations the program made, from the allocation and free calls the library sees,
// so a pointer parameter can be resolved to the allocation it points into (and its size).

#include <cstdint>
#include <map>
#include <optional>

namespace kforecast::capture::injection {

struct Allocation {
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
  friend bool operator==(const Allocation&, const Allocation&) = default;
};

class AllocationTable {
 public:
  void add(std::uint64_t base, std::uint64_t bytes);
  void remove(std::uint64_t base);
  // The allocation holding `address` (base <= address < base + bytes), if one is tracked.
  std::optional<Allocation> find(std::uint64_t address) const;
  std::size_t size() const { return m_by_base.size(); }

 private:
  std::map<std::uint64_t, std::uint64_t> m_by_base;  // base -> bytes
};

}  // namespace kforecast::capture::injection
