// SPDX-License-Identifier: Apache-2.0
#include "forecast/calibration.hpp"

#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::forecast;

TEST_CASE("forecast: reliability buckets") {
  // Ten buckets; three populated: [0.9, 1) twice, [0.6, 0.7) three times, [0.1, 0.2) once.
  const std::vector<ConfidenceOutcome> outcomes{
      {0.95, true}, {0.92, false}, {0.65, true}, {0.62, true}, {0.68, false}, {0.15, false},
  };
  const auto buckets = reliability_buckets(outcomes).value();
  REQUIRE(buckets.size() == 10);
  CHECK(buckets[6].low == Approx(0.6));
  CHECK(buckets[6].high == Approx(0.7));
  CHECK(buckets[9].count == 2);
  CHECK(buckets[9].mean_confidence == Approx(0.935));  // (0.95 + 0.92) / 2
  CHECK(buckets[9].accuracy == Approx(0.5));
  CHECK(buckets[6].count == 3);
  CHECK(buckets[6].mean_confidence == Approx(0.65));  // (0.65 + 0.62 + 0.68) / 3
  CHECK(buckets[6].accuracy == Approx(2.0 / 3.0));
  CHECK(buckets[1].count == 1);
  CHECK(buckets[1].accuracy == 0.0);
  CHECK(buckets[0].count == 0);
  CHECK(buckets[0].mean_confidence == 0.0);

  // (2/6)|0.5 - 0.935| + (3/6)|0.6667 - 0.65| + (1/6)|0 - 0.15| = (0.87 + 0.05 + 0.15) / 6 = 0.178333
  CHECK(expected_calibration_error(outcomes).value() == Approx(0.1783333));
}

TEST_CASE("forecast: calibration with three buckets and the edges 0 and 1") {
  // Buckets [0, 1/3), [1/3, 2/3), [2/3, 1]: 0.0 and 0.2 in the first, 0.5 in the second,
  // 0.7 and 1.0 in the last (1.0 belongs to the last bucket, not a fourth).
  const std::vector<ConfidenceOutcome> outcomes{
      {1.0, true}, {0.0, false}, {0.5, true}, {0.7, false}, {0.2, false},
  };
  const auto buckets = reliability_buckets(outcomes, 3).value();
  REQUIRE(buckets.size() == 3);
  CHECK(buckets[0].count == 2);
  CHECK(buckets[1].count == 1);
  CHECK(buckets[2].count == 2);
  CHECK(buckets[2].mean_confidence == Approx(0.85));
  CHECK(buckets[2].high == 1.0);
  // (2 * |0 - 0.1| + 1 * |1 - 0.5| + 2 * |0.5 - 0.85|) / 5 = (0.2 + 0.5 + 0.7) / 5 = 0.28
  CHECK(expected_calibration_error(outcomes, 3).value() == Approx(0.28));
}

TEST_CASE("forecast: a confidence on a bucket edge goes to the bucket above") {
  const std::vector<ConfidenceOutcome> at_07{{0.7, true}};
  CHECK(reliability_buckets(at_07).value()[7].count == 1);
  // 15/22 * 22 rounds to 14.999999999999998, yet 15/22 is the lower edge of bucket 15.
  const std::vector<ConfidenceOutcome> at_edge{{15.0 / 22.0, true}};
  CHECK(reliability_buckets(at_edge, 22).value()[15].count == 1);
}

TEST_CASE("forecast: perfect calibration has no error") {
  // Confidence 0.75, three of four right.
  const std::vector<ConfidenceOutcome> outcomes{{0.75, true}, {0.75, true}, {0.75, false}, {0.75, true}};
  CHECK(expected_calibration_error(outcomes).value() == Approx(0.0).margin(1e-12));
  // Always sure, always right.
  const std::vector<ConfidenceOutcome> sure{{1.0, true}, {1.0, true}};
  CHECK(expected_calibration_error(sure).value() == 0.0);
  // Always sure, always wrong: the worst.
  const std::vector<ConfidenceOutcome> wrong{{1.0, false}, {1.0, false}};
  CHECK(expected_calibration_error(wrong).value() == 1.0);
}

TEST_CASE("forecast: calibration errors") {
  const std::vector<ConfidenceOutcome> none;
  CHECK_FALSE(expected_calibration_error(none).has_value());
  SECTION("empty input still gives empty buckets") {
    const auto buckets = reliability_buckets(none).value();
    CHECK(buckets.size() == 10);
    CHECK(buckets[3].count == 0);
  }
  const std::vector<ConfidenceOutcome> some{{0.5, true}};
  CHECK(reliability_buckets(some, 0).error().exit_code == ExitCode::usage);
  CHECK_FALSE(expected_calibration_error(some, 0).has_value());
  const std::vector<ConfidenceOutcome> above_one{{0.5, true}, {1.2, true}};
  CHECK(reliability_buckets(above_one).error().message ==
        "confidence 1.2 of forecast 2 is not a probability in [0, 1]");
  const std::vector<ConfidenceOutcome> negative{{-0.1, true}};
  CHECK_FALSE(expected_calibration_error(negative).has_value());
  const std::vector<ConfidenceOutcome> not_a_number{{std::nan(""), false}};
  CHECK_FALSE(reliability_buckets(not_a_number).has_value());
}
