// SPDX-License-Identifier: Apache-2.0
#pragma once

// The GPU a run may measure on, handed in by the caller: cli's asks the CUDA driver and runs each
// batch of pairs in benchmark child processes (measure/bench_child.hpp); tests hand in fakes.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/error.hpp"
#include "bench/measurement.hpp"
#include "measure/bench_child.hpp"

namespace kforecast::measure {

// Measures the pairs in as few child processes as they allow, each regression confirmed in a
// fresh one (measure_batch_confirmed); `progress` hears what the children are doing.
using PairsMeasurer =
    std::function<BatchOutcomes(const BatchRequest& request, const std::function<void(std::string_view)>& progress)>;

struct GpuAccess {
  // The first local GPU's architecture and name ("sm_90", "NVIDIA H100 80GB HBM3"), for
  // cuda.arch = "auto"; nullopt: none visible.
  std::function<std::optional<std::pair<std::string, std::string>>()> local;
  // Why no kernel can be measured here; nullopt when a GPU is usable.
  std::function<std::optional<std::string>()> unavailable;
  PairsMeasurer measure_pairs;
};

}  // namespace kforecast::measure
