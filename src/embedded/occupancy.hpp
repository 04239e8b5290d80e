// SPDX-License-Identifier: Apache-2.0
#pragma once

// Theoretical occupancy from the per-architecture limits (hardware/arch_limits.hpp, the CUDA occupancy
// calculator's rules), and the GPUs the forecast can be for (figures from hardware/gpu_specs.hpp). Pure:
// no device is asked.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "base/error.hpp"
#include "hardware/arch_limits.hpp"

namespace kforecast::embedded {

struct Gpu {
  std::string_view name;  // as forecast.hardware names it: "H100"
  int compute_capability = 0;
  int sm_count = 0;
  int boost_clock_mhz = 0;  // cycles per microsecond
  int dram_gb_per_s = 0;    // peak DRAM bandwidth, 10^9 bytes per second
};

std::span<const Gpu> all_gpus();
// The GPU of this name (case-insensitive, "H100" or "NVIDIA H100 80GB HBM3"), or nullopt.
std::optional<Gpu> find_gpu(std::string_view name);
// find_gpu, or a usage error that names `where` the name came from ("--hardware") and lists the
// known GPUs.
Result<Gpu> named_gpu(std::string_view name, std::string_view where);

struct BlockResources {
  int threads = 0;
  int registers_per_thread = 0;
  std::int64_t shared_bytes = 0;  // static + dynamic
};

struct Occupancy {
  int blocks_per_sm = 0;  // 0: the block cannot run (too many threads, registers or shared bytes)
  int active_warps = 0;
  double fraction = 0;  // active warps / max warps per SM
  enum class Limit { warps, blocks, registers, shared, none } limit = Limit::none;
};

Occupancy theoretical_occupancy(const hardware::ArchLimits& limits, const BlockResources& block);

}  // namespace kforecast::embedded
