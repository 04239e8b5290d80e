// SPDX-License-Identifier: Apache-2.0
#pragma once

// Per-SM limits and throughputs of each compute capability (the CUDA occupancy calculator's rules
// and the programming guide's tables): what the embedded forecaster's occupancy and time estimate
// use, and what the LLM prompt states per SM. Pure: no device is asked.

#include <cstdint>
#include <optional>
#include <span>

namespace kforecast::hardware {

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
  // embedded forecaster's time estimate (embedded/time_estimate.hpp).
  int fp32_per_clock = 64;
  int fp64_per_clock = 32;
  int special_per_clock = 16;  // ex2, lg2, sin, cos, rsqrt, rcp (the SFU)
  int other_per_clock = 64;    // integer, compare, convert, move
  int memory_per_clock = 32;   // load/store instructions (one warp's per clock)
};

// The limits of a compute capability, or nullopt for one the table lacks.
std::optional<ArchLimits> arch_limits(int compute_capability);

}  // namespace kforecast::hardware
