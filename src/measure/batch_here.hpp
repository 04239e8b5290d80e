// SPDX-License-Identifier: Apache-2.0
#pragma once

// Many pairs measured in this process (`kforecast bench --in-process --batch`): one driver, one
// context and one set of support kernels for all of them, each pair's sides compiled a few pairs
// ahead of the one being timed (measure/measuring_process.hpp), so a pull request of 50 kernels
// pays the process start-up, the context and the GPU's warm-up once rather than 50 times.
//
// A pair that faults leaves the context unusable (a sticky CUDA error), so the batch stops after
// any `failed` measurement and its parent starts a fresh process for the pairs left. A pair that
// hangs is caught by a watchdog: past bench.timeout_seconds, `on_hang` hears the pair's failed
// result, and is expected to end the process.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <vector>

#include "base/error.hpp"
#include "bench/runner.hpp"
#include "config/config.hpp"
#include "measure/batch_protocol.hpp"
#include "measure/bench_measure.hpp"

namespace kforecast::measure {

struct BatchOptions {
  bench::RunnerOptions runner;
  std::filesystem::path builds_folder;  // the decision's kept builds (measuring_process.hpp); empty: none
  // Pairs are started while the GPU seconds spent here stay below this; the rest are skipped. 0: no limit.
  double budget_seconds = 0;
  double timeout_seconds = 300;  // one pair's limit (bench.timeout_seconds)
  std::size_t builds_ahead = 0;  // pairs compiled ahead of the one timed; 0: from the CPU count
};

enum class BatchEnd { finished, stopped_after_failure };

// Measures `pairs` in order; `emit` hears each pair's result once, in order. An Error where
// nothing can be measured here (no GPU: exit 3).
Result<BatchEnd> measure_batch_here(const std::vector<BenchPair>& pairs, const config::Config& config,
                                    const BenchWorld& world, const BatchOptions& options,
                                    const std::function<void(const BatchResult&)>& emit,
                                    const std::function<void(const BatchResult&)>& on_hang);

}  // namespace kforecast::measure
