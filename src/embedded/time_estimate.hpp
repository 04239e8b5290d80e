// SPDX-License-Identifier: Apache-2.0
#pragma once

// A first-order (roofline) time estimate of one launch, from what the forecaster knows without a
// GPU: the launch's threads (grid x block), each thread's global bytes (the PTX loads' and
// stores' widths) and its instructions by kind (the PTX mix), and the target GPU's peak DRAM
// bandwidth, SM count, clock and per-SM throughputs. DRAM time = threads x bytes / bandwidth;
// compute time = threads x sum(instructions of a kind / that kind's per-SM rate) / (SMs x clock);
// the kernel's time is the larger. Only where each thread's work is its static instruction
// count, that is where the PTX keeps no loop (no backward branch): a loop's trip count is not in
// the PTX, so for a kernel that keeps one the estimate is unknown (nullopt), not a guess.
// Caches, latency and occupancy are left out on purpose: other features speak for them; this
// one says how much work the launch asks for, and which resource it asks most of.

#include <optional>

#include "embedded/occupancy.hpp"
#include "embedded/ptx_mix.hpp"
#include "hardware/arch_limits.hpp"

namespace kforecast::embedded {

struct TimeEstimate {
  double dram_us = 0;
  double compute_us = 0;
  double time_us() const { return dram_us > compute_us ? dram_us : compute_us; }
};

std::optional<TimeEstimate> estimate_time(const PtxMix& mix, double threads, const Gpu& gpu, const hardware::ArchLimits& limits);

}  // namespace kforecast::embedded
