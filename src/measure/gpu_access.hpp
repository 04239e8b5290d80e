// SPDX-License-Identifier: Apache-2.0
#pragma once

// The GPU a run may measure on, handed in by the caller: cli's asks the CUDA driver and runs each
// pair in a benchmark child process (measure/bench_child.hpp); tests hand in fakes.

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/error.hpp"
#include "bench/measurement.hpp"
#include "measure/bench_child.hpp"

namespace kforecast::measure {

// Measures one pair in a fresh child process, a regression confirmed in a second;
// `progress` hears what the child is doing.
using PairMeasurer = std::function<Result<bench::Measurement>(const ChildRequest& request,
                                                              const std::function<void(std::string_view)>& progress)>;

struct GpuAccess {
  // The first local GPU's architecture and name ("sm_90", "NVIDIA H100 80GB HBM3"), for
  // cuda.arch = "auto"; nullopt: none visible.
  std::function<std::optional<std::pair<std::string, std::string>>()> local;
  // Why no kernel can be measured here; nullopt when a GPU is usable.
  std::function<std::optional<std::string>()> unavailable;
  PairMeasurer measure_pair;
};

}  // namespace kforecast::measure
