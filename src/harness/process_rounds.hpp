// SPDX-License-Identifier: Apache-2.0
#pragma once

// A project's benchmarks timed at the process level, base against head, with the statistics of
// the standalone runner (bench/statistics.hpp): each run of the
// benchmark program is one block, its statistic per benchmark the median of the repetitions it
// reported; runs go in A B B A rounds (base, head, head, base), which cancels a drift linear in
// time; each round gives one log speedup per benchmark, the interval is over rounds, and the rule
// looks after 4, 8, 16, ... rounds (bench::is_look) and at the cap, stopping once every benchmark
// is decided. Several benchmarks of one kernel combine as the runner's sizes do.
// Pure: running the program is a function the caller passes (harness_measure.cpp runs it).

#include <functional>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "bench/measurement.hpp"
#include "harness/benchmark_output.hpp"

namespace kforecast::harness {

enum class Side { base, head };
std::string_view side_name(Side side);

struct ProgramRun {
  std::vector<BenchmarkTimes> benchmarks;
  double seconds = 0;  // wall time of the run (what the measurement cost)
};

// One run of the program on one side; `index` counts runs from 0 (for names of output files).
using RunProgram = std::function<Result<ProgramRun>(Side side, int index)>;

struct RoundSettings {
  double tolerance = 0.02;   // bench.tolerance
  double confidence = 0.99;  // bench.confidence
  int max_rounds = 8;        // the harness's rounds
};

// The measurement, or an Error where a run failed or its output cannot be trusted (a run that
// selected no benchmark, benchmarks that differ between runs): the kernel stays unverified,
// never passes. `source` heads the measurement's notes ("harness 'cpu' (gbench): BM_Scale").
Result<bench::Measurement> measure_in_rounds(const RunProgram& run, const RoundSettings& settings,
                                             const std::string& source);

}  // namespace kforecast::harness
