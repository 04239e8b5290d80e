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
  // A borderline's third measurement (`--extended`): four times the rounds and twice the GPU
  // budget, so an interval that straddled the tolerance can narrow to a decision.
  bool extended = false;
};

// One measurement in a fresh child. A crash or a timeout is a `failed` measurement; an Error
// only where the child said the work could not start (exit 2: a usage or spec mistake, exit 3:
// no GPU or no NVRTC), with the child's message.
Result<bench::Measurement> measure_in_child(const ChildRequest& request);

// measure_in_child, and a regression measured again in a second fresh process before it is
// believed, unless its whole interval lies beyond the tolerance by more
// than a process-level bias could make (bench::beyond_process_bias; a note says so). A second
// process that decides nothing (its interval straddles the tolerance) is followed by a third with
// more rounds (ChildRequest::extended): a regression there confirms the first. Unconfirmed, it
// becomes `inconclusive` with a "borderline: ..." reason that gives every process's figures.
// GPU seconds add up over all. `progress` (may be empty) hears "confirming ..." before each.
// `measure` is how one process is measured (measure_in_child; a test's stand-in).
using MeasureOneProcess = std::function<Result<bench::Measurement>(const ChildRequest&)>;
Result<bench::Measurement> measure_confirmed(const ChildRequest& request,
                                             const std::function<void(std::string_view)>& progress = {},
                                             const MeasureOneProcess& measure = measure_in_child);

}  // namespace kforecast::measure
