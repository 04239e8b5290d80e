// SPDX-License-Identifier: Apache-2.0
// The measurement JSON: what the isolated child writes is what the parent reads back and writes
// again (bench's output, shard results), audit fields included.
#include "bench/measurement.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::bench;
using Catch::Matchers::Contains;

namespace {

Measurement audited_measurement() {
  Measurement m;
  m.verdict = Verdict::regression;
  m.interval = {0.95, 0.94, 0.96, 4};
  m.t_base_us = 4.36;
  m.t_head_us = 4.59;
  m.gpu = "NVIDIA H100 80GB HBM3";
  m.driver = "580.159.04 (CUDA 13.0)";
  m.gpu_seconds = 0.17;
  m.sm_clock_median_mhz = 1980;
  m.sm_clock_min_mhz = 1965;
  m.throttle_reasons = 4;
  m.regression_checks = 2;
  m.notes = {"a note"};
  SizeMeasurement size;
  size.size = "n=131072";
  size.verdict = Verdict::regression;
  size.interval = m.interval;
  size.t_reference_us = 4.36;
  size.t_candidate_us = 4.59;
  size.batch = 4;
  size.samples_per_block = 3;
  size.redone_blocks = 1;
  size.round_log_speedups = {-0.05, -0.051};
  size.block_clocks = {{1980, 0}, {1965, 4}};
  size.block_samples_us = {{4.352, 4.36, 4.368}, {4.584, 4.592, 4.6}};
  size.checks = {"seed 1: y: 131072 elements agree (max abs error 0, max rel error 0)"};
  m.sizes = {size};
  return m;
}

}  // namespace

TEST_CASE("bench: a measurement read back from its JSON writes the same JSON, audit fields included") {
  const std::string written = measurement_json(audited_measurement());
  auto read = parse_measurement_json(written);
  REQUIRE(read.has_value());
  CHECK(measurement_json(*read) == written);
  // what the child process once lost on the way to the parent
  CHECK_THAT(written, Contains("\"samples_per_block\": 3"));
  CHECK_THAT(written, Contains("\"redone_blocks\": 1"));
  CHECK_THAT(written, Contains("\"block_sm_mhz\": [1980, 1965]"));
  CHECK_THAT(written, Contains("\"block_throttle_reasons\": [0, 4]"));
  CHECK_THAT(written, Contains("\"block_samples_us\": [[4.352, 4.36, 4.368], [4.584, 4.592, 4.6]]"));
  CHECK_THAT(written, Contains("seed 1: y: 131072 elements agree"));
  CHECK(read->sizes.at(0).block_samples_us.at(1).at(2) == Approx(4.6));
}

TEST_CASE("bench: a measurement JSON that is not one is an error, not a result") {
  CHECK_FALSE(parse_measurement_json("").has_value());
  CHECK_FALSE(parse_measurement_json("{\"verdict\": \"maybe\"}").has_value());
  CHECK_FALSE(parse_measurement_json("[1, 2]").has_value());
  // audit fields of the wrong type are skipped, never a crash
  auto odd = parse_measurement_json(
      "{\"verdict\": \"same\", \"sizes\": [{\"block_samples_us\": [1, [\"x\"], [2.5]], \"block_sm_mhz\": \"no\"}]}");
  REQUIRE(odd.has_value());
  REQUIRE(odd->sizes.size() == 1);
  CHECK(odd->sizes[0].block_clocks.empty());
}

TEST_CASE("bench: a failed measurement and its failed size carry no speedup in the JSON, and say whose failure it is") {
  auto m = failed_measurement("the reference (base) is broken: size n=1000: the reference a.cu:k wrote 4 bytes past 'y'",
                              "NVIDIA H100 80GB HBM3");
  m.blame = Blame::reference;
  SizeMeasurement size;  // as measure_size leaves a failed one: the interval's defaults untouched
  size.size = "n=1000";
  size.verdict = Verdict::failed;
  size.checks = {};
  m.sizes = {size};
  const std::string written = measurement_json(m);
  CHECK_THAT(written, Contains("\"speedup\": null, \"ci_low\": null, \"ci_high\": null, \"bin\": null"));
  CHECK_THAT(written, Contains("\"blame\": \"reference\""));
  CHECK_THAT(written, Contains("{\"size\": \"n=1000\", \"verdict\": \"failed\", \"speedup\": null, \"ci_low\": null, "
                               "\"ci_high\": null, \"t_base_us\": null, \"t_head_us\": null"));
  CHECK_THAT(written, !Contains("\"speedup\": 1,"));
  auto read = parse_measurement_json(written);
  REQUIRE(read.has_value());
  CHECK(read->blame == Blame::reference);
  CHECK(read->interval.speedup == 0);
  REQUIRE(read->sizes.size() == 1);
  CHECK(read->sizes[0].interval.speedup == 0);
  CHECK(measurement_json(*read) == written);

  SECTION("the candidate's failure") {
    m.blame = Blame::candidate;
    CHECK_THAT(measurement_json(m), Contains("\"blame\": \"candidate\""));
    CHECK(parse_measurement_json(measurement_json(m))->blame == Blame::candidate);
  }
  SECTION("a verdict other than failed blames no one") {
    CHECK_THAT(measurement_json(audited_measurement()), Contains("\"blame\": null"));
    CHECK(parse_measurement_json(measurement_json(audited_measurement()))->blame == Blame::candidate);
  }
}
