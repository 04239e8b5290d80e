// SPDX-License-Identifier: Apache-2.0
#include "embedded/time_estimate.hpp"

#include <algorithm>

namespace kforecast::embedded {

std::optional<TimeEstimate> estimate_time(const PtxMix& mix, double threads, const Gpu& gpu, const hardware::ArchLimits& limits) {
  if (!mix.found || mix.backward_branches > 0 || threads <= 0 || gpu.sm_count <= 0 || gpu.boost_clock_mhz <= 0 ||
      gpu.dram_gb_per_s <= 0)
    return std::nullopt;
  TimeEstimate estimate;
  // 1 GB/s is 1000 bytes per microsecond.
  estimate.dram_us = threads * (mix.global_load_bytes + mix.global_store_bytes) / (gpu.dram_gb_per_s * 1e3);
  const double memory =
      mix.global_loads + mix.global_stores + mix.shared_loads + mix.shared_stores + mix.local_accesses + mix.atomics;
  const double other = std::max(0.0, mix.instructions - mix.fp32 - mix.fp64 - mix.special - memory);
  const double cycles_per_thread_per_sm = mix.fp32 / limits.fp32_per_clock + mix.fp64 / limits.fp64_per_clock +
                                          mix.special / limits.special_per_clock + other / limits.other_per_clock +
                                          memory / limits.memory_per_clock;
  // The clock in MHz is cycles per microsecond.
  estimate.compute_us = threads * cycles_per_thread_per_sm / (static_cast<double>(gpu.sm_count) * gpu.boost_clock_mhz);
  return estimate;
}

}  // namespace kforecast::embedded
