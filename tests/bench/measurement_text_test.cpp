// SPDX-License-Identifier: Apache-2.0
#include "bench/measurement_text.hpp"

#include <limits>

#include <catch2/catch.hpp>

using namespace kforecast::bench;
using Catch::Matchers::Contains;

namespace {

SizeMeasurement timed_size(std::string name, double speedup) {
  SizeMeasurement size;
  size.size = std::move(name);
  size.verdict = Verdict::same;
  size.interval = {speedup, speedup - 0.01, speedup + 0.01, 4};
  size.round_log_speedups = {0, 0, 0, 0};
  size.batch = 1;
  return size;
}

// As measure_size leaves a failed size: the interval's defaults (1, 1, 1) untouched.
SizeMeasurement failed_size(std::string name) {
  SizeMeasurement size;
  size.size = std::move(name);
  size.verdict = Verdict::failed;
  return size;
}

}  // namespace

TEST_CASE("bench text: a failed size prints its failure and no speedup") {
  auto m = failed_measurement("size n=1000: the candidate b.cu:k wrote 4 bytes past 'y' (seed 1)", "NVIDIA H100");
  m.sizes = {timed_size("n=4096", 1.002), failed_size("n=1000")};
  const auto text = measurement_text(m, "b.cu:k", "a.cu:k");
  CHECK_THAT(text, Contains("  verdict    failed\n"));
  CHECK_THAT(text, Contains("  reason     size n=1000: the candidate b.cu:k wrote 4 bytes past 'y' (seed 1)\n"));
  CHECK_THAT(text, Contains("  speedup    not measured\n"));
  CHECK_THAT(text, Contains("  size       n=1000: failed, not timed (see reason)\n"));
  CHECK_THAT(text, !Contains("failed 1.0000x"));
  CHECK_THAT(text, !Contains("[1.0000, 1.0000]"));
  // A size timed before the failure keeps its numbers.
  CHECK_THAT(text, Contains("  size       n=4096: same 1.0020x [0.9920, 1.0120], 4 rounds, 1 launches per sample\n"));
}

TEST_CASE("bench text: a broken reference is not the candidate's failure") {
  auto m = failed_measurement(std::string(broken_reference_prefix) + "the reference a.cu:k failed: CUDA_ERROR_ILLEGAL_ADDRESS");
  m.blame = Blame::reference;
  const auto text = measurement_text(m, "b.cu:k", "a.cu:k");
  CHECK_THAT(text, Contains("  verdict    failed: the reference is broken, the candidate is not judged\n"));
  CHECK_THAT(text, Contains("  reason     the reference (base) is broken: the reference a.cu:k failed"));
}

TEST_CASE("bench text: a timed measurement prints its interval, an unbounded edge in words") {
  Measurement m;
  m.verdict = Verdict::inconclusive;
  m.interval = {1.01, 0.9, std::numeric_limits<double>::infinity(), 4};
  m.t_base_us = 10;
  m.t_head_us = 9.9;
  const auto text = measurement_text(m, "b.cu:k", "a.cu:k");
  CHECK_THAT(text, Contains("  speedup    1.0100x  [0.9000, unbounded] at 99% confidence, 4 rounds (tolerance 2%)\n"));
  CHECK_THAT(text, Contains("  time       reference 10.000 us, candidate 9.900 us per launch"));
}
