// SPDX-License-Identifier: Apache-2.0
#pragma once

// Theoretical occupancy from a built-in table of per-architecture limits (the CUDA occupancy
// calculator's rules), and the GPUs the forecast can be for. Pure: no device is asked.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace kforecast::embedded {

struct ArchLimits {
  int compute_capability = 0;  // 90 for sm_90
  int max_threads_per_block = 1024;
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;
  int registers_per_sm = 65536;
  int max_registers_per_thread = 255;
  int register_allocation_unit = 256;  // registers, per warp
  std::int64_t shared_per_sm = 0;      // bytes usable by blocks
  std::int64_t max_shared_per_block = 0;
  std::int64_t shared_allocation_unit = 128;
  std::int64_t shared_reserved_per_block = 0;  // the runtime's 1 KiB per block from sm_80
  // Results per SM per clock (the programming guide's arithmetic-throughput table), for the
  // time estimate (time_estimate.hpp).
  int fp32_per_clock = 64;
  int fp64_per_clock = 32;
  int special_per_clock = 16;  // ex2, lg2, sin, cos, rsqrt, rcp (the SFU)
  int other_per_clock = 64;    // integer, compare, convert, move
  int memory_per_clock = 32;   // load/store instructions (one warp's per clock)
};

struct Gpu {
  std::string_view name;  // as forecast.hardware names it: "H100"
  int compute_capability = 0;
  int sm_count = 0;
  int boost_clock_mhz = 0;  // cycles per microsecond
  int dram_gb_per_s = 0;    // peak DRAM bandwidth, 10^9 bytes per second
};

std::span<const ArchLimits> all_arch_limits();
std::span<const Gpu> all_gpus();
// The limits of a compute capability, or nullopt for one the table lacks.
std::optional<ArchLimits> arch_limits(int compute_capability);
// The GPU of this name (case-insensitive, "H100" or "NVIDIA H100 80GB HBM3"), or nullopt.
std::optional<Gpu> find_gpu(std::string_view name);

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

Occupancy theoretical_occupancy(const ArchLimits& limits, const BlockResources& block);

}  // namespace kforecast::embedded
