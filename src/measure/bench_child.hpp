// SPDX-License-Identifier: Apache-2.0
#pragma once

// Measuring a kernel pair in a child process: this binary re-executed as
// `kforecast bench ... --in-process --format json` under a wall-clock limit, so a kernel that
// faults, hangs or exhausts memory becomes a `failed` measurement with its reason and the caller
// goes on. Shared by `kforecast bench` and `kforecast pr`.

#include <filesystem>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
  // Where the processes of one decision keep both sides' builds (`--builds`,
  // measure/measuring_process.hpp); empty: none (measure_confirmed makes one for its processes).
  std::filesystem::path builds_folder;
};

// One measurement in a fresh child. A crash or a timeout is a `failed` measurement; an Error
// only where the child said the work could not start (exit 2: a usage or spec mistake, exit 3:
// no GPU or no NVRTC), with the child's message.
Result<bench::Measurement> measure_in_child(const ChildRequest& request);

// measure_in_child, and a regression confirmed in fresh processes as measure/confirmation.hpp
// says, all of them sharing one builds folder. `progress` (may be empty) hears "confirming ..."
// before each.
// `measure` is how one process is measured (measure_in_child; a test's stand-in).
using MeasureOneProcess = std::function<Result<bench::Measurement>(const ChildRequest&)>;
Result<bench::Measurement> measure_confirmed(const ChildRequest& request,
                                             const std::function<void(std::string_view)>& progress = {},
                                             const MeasureOneProcess& measure = measure_in_child);

// Many pairs measured in as few child processes as they allow: `kforecast bench --in-process
// --batch` (measure/batch_here.hpp), one process for all of them, and a fresh one for the pairs
// left after a pair fails (its fault may have spoiled the context), crashes or hangs.
struct BatchRequest {
  std::vector<BenchPair> pairs;  // in the order to measure them: the riskiest first
  std::optional<std::string> config;
  std::string working_directory;
  double timeout_seconds = 300;  // per pair (bench.timeout_seconds)
  bool confirming = false;
  bool extended = false;
  // Pairs are started while the first measurements' GPU seconds stay below this; 0: no limit.
  double budget_seconds = 0;
  std::filesystem::path builds_folder;  // as ChildRequest's
  // The run's wall time left (run.budget_seconds); 0: no limit. Pairs not reached within it are
  // not measured.
  std::chrono::milliseconds wall_left{0};
  std::string program;  // the measuring program; empty: this executable (a test's stand-in)
  // Hears how many of `pairs` have a result, as the children finish them (from another thread,
  // while this one waits for the child); may be empty.
  std::function<void(std::size_t finished)> on_progress;
};

// One per pair, in the request's order: a measurement (its wall_seconds: its share of its
// process's wall, the start-up counted in the first pair's), an Error where it could not be
// measured (exit 2 or 3 of measure_in_child), or nullopt where it was not started (the budget or
// the run's wall time was spent).
using BatchOutcomes = std::vector<std::optional<Result<bench::Measurement>>>;
BatchOutcomes measure_batch_in_children(const BatchRequest& request);

// measure_batch_in_children, and every regression confirmed as measure/confirmation.hpp says: the
// pairs that need a fresh process measured together in one (`--confirming`), and those whose
// confirmation straddled the tolerance together in a third (`--extended`).
using MeasureBatch = std::function<BatchOutcomes(const BatchRequest&)>;
BatchOutcomes measure_batch_confirmed(const BatchRequest& request,
                                      const std::function<void(std::string_view)>& progress = {},
                                      const MeasureBatch& measure = measure_batch_in_children);

}  // namespace kforecast::measure
