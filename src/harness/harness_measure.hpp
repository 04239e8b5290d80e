// SPDX-License-Identifier: Apache-2.0
#pragma once

// One changed kernel measured through the project's own harness: both revisions checked out and
// built (built_tree.hpp), then the program run with the kernel's benchmark filter in A B B A
// rounds of processes (process_rounds.hpp), each run's output read in the harness's format
// (benchmark_output.hpp). The result is the runner's bench::Measurement, so the report, the
// ledger and the gate treat it alike; its `gpu` names the source ("harness 'cpu' (gbench):
// BM_Scale").

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "bench/measurement.hpp"
#include "harness/harness_config.hpp"
#include "harness/process_rounds.hpp"
#include "harness/shell_runner.hpp"

namespace kforecast::harness {

struct HarnessRequest {
  const Harness& harness;
  const BenchmarkMap& map;
  std::filesystem::path repository;
  std::string base_commit;
  std::string head_commit;
  std::filesystem::path cache;  // where worktrees are kept (default_harness_cache)
  double tolerance = 0.02;      // bench.tolerance
  double confidence = 0.99;     // bench.confidence
};

// Hears what is being done ("building head", "run 3 of at most 32"), for a progress line.
using HarnessProgress = std::function<void(std::string_view)>;

// An Error (the kernel stays unverified) where a tree cannot be checked out or built, a run
// fails, or its output is unreadable; the message names the harness, the side, the run and the
// output file's field.
Result<bench::Measurement> measure_with_harness(const HarnessRequest& request, const ShellRunner& shell,
                                                const HarnessProgress& progress = {});

// $XDG_CACHE_HOME/kforecast/harness, else ~/.cache/kforecast/harness; nullopt without either.
std::optional<std::filesystem::path> default_harness_cache(const EnvLookup& env);

}  // namespace kforecast::harness
