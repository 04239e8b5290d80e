// SPDX-License-Identifier: Apache-2.0
#pragma once

// Measuring a kernel pair in a child process: this binary re-executed as
// `kforecast bench ... --in-process --format json` under a wall-clock limit, so a kernel that
// faults, hangs or exhausts memory becomes a `failed` measurement with its reason and the caller
// goes on. Shared by `kforecast bench` and `kforecast pr`.

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/error.hpp"
#include "bench/measurement.hpp"
#include "measure/bench_measure.hpp"

namespace kforecast::measure {

struct ChildRequest {
  BenchPair pair;
  std::optional<std::string> config;  // passed as --config; nullopt: the child finds its own
  std::string working_directory;      // the child's; empty: this process's
  double timeout_seconds = 300;       // bench.timeout_seconds
  // A regression's confirmation: outputs compared on one seed, not two (`--confirming`).
  bool confirming = false;
};

// One measurement in a fresh child. A crash or a timeout is a `failed` measurement; an Error
// only where the child said the work could not start (exit 2: a usage or spec mistake, exit 3:
// no GPU or no NVRTC), with the child's message.
Result<bench::Measurement> measure_in_child(const ChildRequest& request);

// measure_in_child, and a regression measured again in a second fresh process before it is
// believed, unless its whole interval lies beyond the tolerance by more
// than a process-level bias could make (bench::beyond_process_bias; a note says so). Unconfirmed,
// it becomes `inconclusive` with a "borderline: ..." reason that gives both processes' figures.
// GPU seconds add up over both. `progress` (may be empty) hears "confirming ..." before the second.
Result<bench::Measurement> measure_confirmed(const ChildRequest& request,
                                             const std::function<void(std::string_view)>& progress = {});

}  // namespace kforecast::measure
