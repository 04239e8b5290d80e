// SPDX-License-Identifier: Apache-2.0
#pragma once

// The result of measuring one kernel pair: the report's `measurement` object (speedup, interval,
// bin, verdict, times, GPU, GPU seconds) and, for audit, everything
// behind it: per size the rounds, batch size and correctness checks, and per block the clocks and
// the samples.
// The isolated child writes it as JSON; the parent reads it back.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "bench/statistics.hpp"

namespace kforecast::bench {

// Whose fault a `failed` verdict is. The reference is run and checked first: one that faults,
// writes outside its buffers (pair_run.cpp) or does not compile (measure/bench_measure.cpp) is
// `reference`, and the pair says nothing about the candidate (the gate leaves such a kernel
// unverified); anything else that fails is the candidate's.
enum class Blame { candidate, reference };
std::string_view blame_name(Blame blame);

// How the reason of a failure blamed on the reference begins.
inline constexpr std::string_view broken_reference_prefix = "the reference (base) is broken: ";

struct BlockClock {
  unsigned sm_mhz = 0;
  std::uint64_t throttle_reasons = 0;
};

struct SizeMeasurement {
  std::string size;  // "n=1048576"
  Verdict verdict = Verdict::failed;
  SpeedupInterval interval;
  double t_reference_us = 0;  // median time of one launch
  double t_candidate_us = 0;
  int batch = 0;  // launches per timed sample
  int samples_per_block = 0;
  int redone_blocks = 0;  // blocks whose SM clock dropped
  std::vector<double> round_log_speedups;
  std::vector<BlockClock> block_clocks;               // per timed block, in A B B A order (reference first)
  std::vector<std::vector<double>> block_samples_us;  // each timed block's samples, per launch
  std::vector<std::string> checks;                    // one line per compared output and seed
  Blame blame = Blame::candidate;                     // of a failed size; the measurement's JSON carries it
};

struct Measurement {
  Verdict verdict = Verdict::failed;
  SpeedupInterval interval;
  double t_base_us = 0;  // geometric mean over sizes
  double t_head_us = 0;
  std::string gpu;
  std::string driver;
  // From the first module load to the result: modules, buffers, correctness, warm-up, rounds. The
  // compiles (NVRTC, or the project's nvcc) finish before it starts and are not counted.
  double gpu_seconds = 0;
  // What the decision cost a runner in wall time: every measuring process from its start to its
  // result (the compiles, process start-up and the fresh processes of a confirmation included);
  // set by the parent (measure/bench_child.hpp), 0 from a measuring process itself.
  double wall_seconds = 0;
  std::string reason;  // why failed or inconclusive; empty otherwise
  Blame blame = Blame::candidate;  // of a failed verdict
  double tolerance = 0.02;
  double confidence = 0.99;
  std::string flush = "L2: twice its size read before each sample";
  unsigned sm_clock_median_mhz = 0;
  unsigned sm_clock_min_mhz = 0;
  std::uint64_t throttle_reasons = 0;  // OR over all blocks
  int regression_checks = 1;           // processes that measured it (2: a regression was re-measured)
  std::vector<SizeMeasurement> sizes;
  std::vector<std::string> notes;
};

// A failed measurement with its reason.
Measurement failed_measurement(std::string reason, std::string gpu = "");

// The JSON object. `detail` adds the audit fields beyond the report's.
enum class Detail { design, audit };
std::string measurement_json(const Measurement& measurement, Detail detail = Detail::audit);

// Reads measurement_json's output (the child's), every field, so the parent writes it again
// unchanged; audit fields of the wrong type are skipped.
Result<Measurement> parse_measurement_json(std::string_view text);

// The bin number (1-8) of a speedup, as the report's `bin`.
int measurement_bin(double speedup);

}  // namespace kforecast::bench
