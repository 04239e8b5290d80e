// SPDX-License-Identifier: Apache-2.0
#include "forecast/selective.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include <catch2/catch.hpp>

using namespace kforecast::forecast;

TEST_CASE("forecast: risk-coverage without ties") {
  // Sorted by confidence: losses 0, 1, 0, 1.
  const std::vector<ScoredPrediction> predictions{{0.5, 0}, {0.9, 0}, {0.3, 1}, {0.7, 1}};
  const auto curve = risk_coverage_curve(predictions).value();
  REQUIRE(curve.size() == 4);
  CHECK(curve[0].covered == 1);
  CHECK(curve[0].coverage == Approx(0.25));
  CHECK(curve[0].risk == 0.0);              // 0/1
  CHECK(curve[1].risk == Approx(0.5));      // 1/2
  CHECK(curve[2].risk == Approx(1.0 / 3));  // 1/3
  CHECK(curve[3].coverage == 1.0);
  CHECK(curve[3].risk == Approx(0.5));  // 2/4
  // (0 + 1/2 + 1/3 + 1/2) / 4 = 1.3333 / 4 = 0.333333
  CHECK(area_under_risk_coverage(predictions).value() == Approx(0.3333333));
}

TEST_CASE("forecast: AURC rewards ranking right forecasts first") {
  // Right ones first: risks 0, 0, 1/3, 1/2 -> 0.8333 / 4 = 0.208333
  const std::vector<ScoredPrediction> best{{0.9, 0}, {0.8, 0}, {0.3, 1}, {0.2, 1}};
  CHECK(area_under_risk_coverage(best).value() == Approx(0.2083333));
  // Wrong ones first: risks 1, 1, 2/3, 1/2 -> 3.1667 / 4 = 0.791667
  const std::vector<ScoredPrediction> worst{{0.9, 1}, {0.8, 1}, {0.3, 0}, {0.2, 0}};
  CHECK(area_under_risk_coverage(worst).value() == Approx(0.7916667));
}

TEST_CASE("forecast: risk-coverage groups equal confidences") {
  // Confidences 0.9, 0.8, 0.8, 0.6, 0.5 with losses 0, {1, 0}, 0, 1; the tie is one group.
  const std::vector<ScoredPrediction> predictions{{0.8, 1}, {0.5, 1}, {0.9, 0}, {0.8, 0}, {0.6, 0}};
  const auto curve = risk_coverage_curve(predictions).value();
  REQUIRE(curve.size() == 4);  // no point between the two 0.8s
  CHECK(curve[0].covered == 1);
  CHECK(curve[0].risk == 0.0);
  CHECK(curve[1].covered == 3);
  CHECK(curve[1].coverage == Approx(0.6));
  CHECK(curve[1].risk == Approx(1.0 / 3));  // losses 0, 1, 0
  CHECK(curve[2].covered == 4);
  CHECK(curve[2].risk == Approx(0.25));  // 1/4
  CHECK(curve[3].covered == 5);
  CHECK(curve[3].risk == Approx(0.4));  // 2/5
  // Weighted by group size: (1 * 0 + 2 * 1/3 + 1 * 1/4 + 1 * 2/5) / 5 = 1.316667 / 5 = 0.263333
  CHECK(area_under_risk_coverage(predictions).value() == Approx(0.2633333));

  SECTION("the result does not depend on input order") {
    const std::vector<ScoredPrediction> reordered{{0.8, 0}, {0.9, 0}, {0.6, 0}, {0.5, 1}, {0.8, 1}};
    const auto other = risk_coverage_curve(reordered).value();
    REQUIRE(other.size() == curve.size());
    for (std::size_t i = 0; i < curve.size(); ++i) {
      CHECK(other[i].covered == curve[i].covered);
      CHECK(other[i].risk == curve[i].risk);
    }
    CHECK(area_under_risk_coverage(reordered).value() == area_under_risk_coverage(predictions).value());
  }
  SECTION("tied losses are summed in the same order whatever the input order") {
    // 0.1 + 0.2 + 0.3 = 0.6000000000000001 but 0.3 + 0.2 + 0.1 = 0.6: the bits would differ.
    const std::vector<ScoredPrediction> ascending{{0.5, 0.1}, {0.5, 0.2}, {0.5, 0.3}};
    const std::vector<ScoredPrediction> descending{{0.5, 0.3}, {0.5, 0.2}, {0.5, 0.1}};
    CHECK(risk_coverage_curve(ascending).value()[0].risk == risk_coverage_curve(descending).value()[0].risk);
    CHECK(area_under_risk_coverage(ascending).value() == Approx(0.2));
  }
  SECTION("all tied: one point, AURC is the mean loss") {
    const std::vector<ScoredPrediction> tied{{0.5, 1}, {0.5, 0}, {0.5, 0}, {0.5, 0}};
    const auto one = risk_coverage_curve(tied).value();
    REQUIRE(one.size() == 1);
    CHECK(one[0].coverage == 1.0);
    CHECK(area_under_risk_coverage(tied).value() == Approx(0.25));  // 1/4
  }
}

TEST_CASE("forecast: risk-coverage with a generic loss and any score") {
  // Negative-entropy scores are negative; only their order matters. Risks 0.5, (0.5 + 2) / 2 = 1.25
  const std::vector<ScoredPrediction> predictions{{-1.9, 2.0}, {-0.2, 0.5}};
  const auto curve = risk_coverage_curve(predictions).value();
  REQUIRE(curve.size() == 2);
  CHECK(curve[0].risk == 0.5);
  CHECK(curve[1].risk == 1.25);
  CHECK(area_under_risk_coverage(predictions).value() == Approx(0.875));  // (0.5 + 1.25) / 2
}

TEST_CASE("forecast: risk-coverage errors") {
  const std::vector<ScoredPrediction> none;
  CHECK_FALSE(risk_coverage_curve(none).has_value());
  CHECK_FALSE(area_under_risk_coverage(none).has_value());
  const std::vector<ScoredPrediction> nan_confidence{{0.5, 0}, {std::nan(""), 1}};
  CHECK_THAT(risk_coverage_curve(nan_confidence).error().message, Catch::StartsWith("prediction 2 has confidence nan"));
  const std::vector<ScoredPrediction> infinite_loss{{0.5, std::numeric_limits<double>::infinity()}};
  CHECK_FALSE(area_under_risk_coverage(infinite_loss).has_value());
}
