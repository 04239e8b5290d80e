// SPDX-License-Identifier: Apache-2.0
#include "forecast/scoring.hpp"

#include <vector>

#include <catch2/catch.hpp>

using namespace kforecast::forecast;

namespace {

// {0.1 0.2 0.5 0.2} on bins 3-6; cumulative F1..F7 = 0, 0, 0.1, 0.3, 0.8, 1, 1.
BinDistribution leaning_faster() {
  return BinDistribution::from_raw(std::vector<double>{0, 0, 0.1, 0.2, 0.5, 0.2, 0, 0}).value();
}

}  // namespace

TEST_CASE("forecast: half-Brier") {
  SECTION("a perfect forecast scores 0, a confidently wrong one 1") {
    CHECK(half_brier(BinDistribution::one_hot(SpeedupBin::minor_speedup), SpeedupBin::minor_speedup) == 0.0);
    CHECK(half_brier(BinDistribution::one_hot(SpeedupBin::minor_speedup), SpeedupBin::minor_slowdown) == 1.0);
  }
  SECTION("hand-made") {
    // true 5: 0.1^2 + 0.2^2 + (0.5 - 1)^2 + 0.2^2 = 0.34, halved 0.17
    CHECK(half_brier(leaning_faster(), SpeedupBin::minor_speedup) == Approx(0.17));
    // true 4: 0.1^2 + (0.2 - 1)^2 + 0.5^2 + 0.2^2 = 0.94, halved 0.47
    CHECK(half_brier(leaning_faster(), SpeedupBin::minor_slowdown) == Approx(0.47));
  }
  SECTION("uniform") {
    // 7 * (1/8)^2 + (7/8)^2 = 0.109375 + 0.765625 = 0.875, halved 0.4375
    CHECK(half_brier(BinDistribution::uniform(), SpeedupBin::extreme_speedup) == Approx(0.4375));
  }
}

TEST_CASE("forecast: ranked probability score") {
  SECTION("a perfect forecast scores 0") {
    CHECK(ranked_probability_score(BinDistribution::one_hot(SpeedupBin::high_speedup), SpeedupBin::high_speedup) ==
          0.0);
  }
  SECTION("the worst forecast scores 7 raw, 1 normalised") {
    const BinDistribution worst = BinDistribution::one_hot(SpeedupBin::severe_slowdown);
    CHECK(ranked_probability_score(worst, SpeedupBin::extreme_speedup) == 7.0);  // F = 1, Y = 0 for k = 1..7
    CHECK(normalised_ranked_probability_score(worst, SpeedupBin::extreme_speedup) == Approx(1.0));
  }
  SECTION("distance matters, unlike Brier") {
    const SpeedupBin truth = SpeedupBin::minor_speedup;
    CHECK(ranked_probability_score(BinDistribution::one_hot(SpeedupBin::minor_slowdown), truth) == 1.0);     // F4
    CHECK(ranked_probability_score(BinDistribution::one_hot(SpeedupBin::moderate_slowdown), truth) == 2.0);  // F3, F4
    CHECK(half_brier(BinDistribution::one_hot(SpeedupBin::minor_slowdown), truth) ==
          half_brier(BinDistribution::one_hot(SpeedupBin::moderate_slowdown), truth));
  }
  SECTION("hand-made") {
    // true 5: Y = 0,0,0,0,1,1,1; F - Y = 0,0,0.1,0.3,-0.2,0,0 -> 0.01 + 0.09 + 0.04 = 0.14
    CHECK(ranked_probability_score(leaning_faster(), SpeedupBin::minor_speedup) == Approx(0.14));
    CHECK(normalised_ranked_probability_score(leaning_faster(), SpeedupBin::minor_speedup) == Approx(0.02));  // 0.14/7
    // true 4: F - Y = 0,0,0.1,-0.7,-0.2,0,0 -> 0.01 + 0.49 + 0.04 = 0.54
    CHECK(ranked_probability_score(leaning_faster(), SpeedupBin::minor_slowdown) == Approx(0.54));
    // true 8: Y = 0 -> 0.01 + 0.09 + 0.64 + 1 + 1 = 2.74
    CHECK(ranked_probability_score(leaning_faster(), SpeedupBin::extreme_speedup) == Approx(2.74));
  }
  SECTION("uniform, true bin 1") {
    // F_k = k/8, Y = 1: sum (1 - k/8)^2 = (49 + 36 + 25 + 16 + 9 + 4 + 1) / 64 = 2.1875
    CHECK(ranked_probability_score(BinDistribution::uniform(), SpeedupBin::severe_slowdown) == Approx(2.1875));
  }
}

TEST_CASE("forecast: negative log-likelihood") {
  CHECK(negative_log_likelihood(BinDistribution::one_hot(SpeedupBin::minor_speedup), SpeedupBin::minor_speedup) == 0.0);
  CHECK(negative_log_likelihood(leaning_faster(), SpeedupBin::minor_speedup) == Approx(0.6931472));           // -ln 0.5
  CHECK(negative_log_likelihood(leaning_faster(), SpeedupBin::moderate_slowdown) == Approx(2.3025851));       // -ln 0.1
  CHECK(negative_log_likelihood(BinDistribution::uniform(), SpeedupBin::high_speedup) == Approx(2.0794415));  // ln 8
  SECTION("zero probability hits the floor") {
    CHECK(negative_log_likelihood(leaning_faster(), SpeedupBin::extreme_speedup) == Approx(13.8155106));  // -ln 1e-6
    CHECK(negative_log_likelihood(leaning_faster(), SpeedupBin::extreme_speedup, 1e-3) ==
          Approx(6.9077553));  // -ln 1e-3
  }
  SECTION("the floor does not touch probabilities above it") {
    CHECK(negative_log_likelihood(leaning_faster(), SpeedupBin::moderate_slowdown, 0.05) == Approx(2.3025851));
  }
}

TEST_CASE("forecast: aggregate scores") {
  const std::vector<ForecastOutcome> outcomes{
      {leaning_faster(), SpeedupBin::minor_speedup},                                         // right
      {leaning_faster(), SpeedupBin::significant_speedup},                                   // wrong, one off
      {leaning_faster(), SpeedupBin::moderate_slowdown},                                     // wrong, two off
      {BinDistribution::one_hot(SpeedupBin::extreme_speedup), SpeedupBin::extreme_speedup},  // perfect
  };
  CHECK(accuracy(outcomes).value() == Approx(0.5));              // 2 of 4
  CHECK(within_one_accuracy(outcomes).value() == Approx(0.75));  // 3 of 4
  // half-Brier: 0.17; true 6: (0.01 + 0.04 + 0.25 + 0.64) / 2 = 0.47; true 3: (0.81 + 0.04 +
  // 0.25 + 0.04) / 2 = 0.57; 0. Mean (0.17 + 0.47 + 0.57) / 4 = 0.3025
  CHECK(mean_half_brier(outcomes).value() == Approx(0.3025));
  // RPS: 0.14; true 6: 0.1^2 + 0.3^2 + 0.8^2 = 0.74; true 3: 0.9^2 + 0.7^2 + 0.2^2 = 1.34; 0.
  // Mean (0.14 + 0.74 + 1.34) / 4 = 0.555
  CHECK(mean_ranked_probability_score(outcomes).value() == Approx(0.555));
  // NLL: ln 2 + ln 5 + ln 10 + 0 = ln 100 = 4.6051702, / 4 = 1.1512925
  CHECK(mean_negative_log_likelihood(outcomes).value() == Approx(1.1512925));
  SECTION("the floor reaches the means") {
    const std::vector<ForecastOutcome> missed{{leaning_faster(), SpeedupBin::extreme_speedup}};
    CHECK(mean_negative_log_likelihood(missed, 1e-2).value() == Approx(4.6051702));  // -ln 0.01
  }
  SECTION("no forecasts is an error, not a perfect score") {
    const std::vector<ForecastOutcome> none;
    CHECK_FALSE(accuracy(none).has_value());
    CHECK_FALSE(within_one_accuracy(none).has_value());
    CHECK_FALSE(mean_half_brier(none).has_value());
    CHECK_FALSE(mean_ranked_probability_score(none).has_value());
    CHECK_FALSE(mean_negative_log_likelihood(none).has_value());
  }
}
