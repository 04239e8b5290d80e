// SPDX-License-Identifier: Apache-2.0
// A GPU job's results file is an artifact the merge job reads: any bytes must give results or
// an error; a shard read is within its count, and every kernel has a measurement or a reason.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "plan/shard_results.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast;
  auto results = plan::parse_results_json(std::string_view(reinterpret_cast<const char*>(data), size), "results.json");
  if (!results) return 0;
  if (results->shard == 0 || results->shard > results->shards) __builtin_trap();
  for (const auto& kernel : results->kernels)
    if (!kernel.measurement && kernel.unmeasured_reason.empty()) __builtin_trap();
  return 0;
}
