// SPDX-License-Identifier: Apache-2.0
// The ledger is a file CI restores from an artifact or cache: any bytes must give entries or an
// error, and every entry read must be usable by the calibration (a valid forecast, a speedup).

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "policy/ledger.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto reading =
      kforecast::policy::parse_ledger(std::string_view(reinterpret_cast<const char*>(data), size), "ledger.jsonl");
  if (!reading) return 0;
  for (const auto& entry : reading->entries)
    if (!entry.speedup || !std::isfinite(*entry.speedup) || *entry.speedup <= 0) __builtin_trap();
  return 0;
}
