// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a learned harness map read back from kforecast's cache (measure/learned_harness_map.hpp),
// a file anyone with the runner's account could edit. Any input gives a map or an Error with a
// message; every pair read has a benchmark and a kernel, and writing the map and reading it back
// gives the same pairs.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "measure/learned_harness_map.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto map = measure::parse_learned_map(text, "fuzz.tsv");
  if (!map) {
    if (map.error().message.empty()) std::abort();
    return 0;
  }
  for (const auto& [benchmark, kernel] : map->launches)
    if (benchmark.empty() || kernel.empty()) std::abort();
  auto again = measure::parse_learned_map(measure::learned_map_text(*map), "again.tsv");
  if (!again || again->launches != map->launches) std::abort();
  (void)measure::benchmarks_launching(*map, "ns::k");
  return 0;
}
