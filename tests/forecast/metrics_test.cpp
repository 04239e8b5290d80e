// SPDX-License-Identifier: Apache-2.0
#include "forecast/metrics.hpp"

#include <vector>

#include <catch2/catch.hpp>

using namespace kforecast::forecast;

namespace {

// {0.1 0.2 0.5 0.2} on bins 3-6: predicts bin 5 with confidence 0.5.
BinDistribution leaning_faster() {
  return BinDistribution::from_raw(std::vector<double>{0, 0, 0.1, 0.2, 0.5, 0.2, 0, 0}).value();
}

}  // namespace

TEST_CASE("forecast: metrics over labelled forecasts") {
  const std::vector<LabelledForecast> labelled{
      {leaning_faster(), 1.2},                                      // bin 5: right, confidence 0.5
      {BinDistribution::one_hot(SpeedupBin::minor_slowdown), 1.0},  // bin 4: right, confidence 1
      {leaning_faster(), 0.6},                                      // bin 3: wrong by two, confidence 0.5
      {BinDistribution::uniform(), 0.3},                            // bin 2: predicts 1, wrong by one, 0.125
  };
  const ForecastMetrics m = compute_metrics(labelled).value();
  CHECK(m.n == 4);
  CHECK(m.accuracy == Approx(0.5));
  CHECK(m.within_one == Approx(0.75));
  // Buckets: [0.5, 0.6) conf 0.5 acc 0.5; [0.9, 1] conf 1 acc 1; [0.1, 0.2) conf 0.125 acc 0.
  // (1/4) * 0.125 = 0.03125
  CHECK(m.ece == Approx(0.03125));
  // half-Brier 0.17 + 0 + 0.57 + 0.4375 (uniform) = 1.1775, / 4 = 0.294375
  CHECK(m.brier == Approx(0.294375));
  // RPS 0.14 + 0 + 1.34 + uniform vs bin 2: (1/64 + (36+25+16+9+4+1)/64) = 1.4375; 2.9175 / 4
  CHECK(m.crps == Approx(0.729375));
  // NLL ln 2 + 0 + ln 10 + ln 8 = 5.0751738, / 4
  CHECK(m.nll == Approx(1.2687935));
  // Confidence groups 1 (loss 0), 0.5 x2 (losses 0, 1), 0.125 (loss 1): risks 0, 1/3, 1/2;
  // (1 * 0 + 2 * 1/3 + 1 * 1/2) / 4 = 0.2916667
  CHECK(m.aurc == Approx(0.2916667));
}

TEST_CASE("forecast: metrics of perfect forecasts") {
  const std::vector<LabelledForecast> labelled{
      {BinDistribution::one_hot(SpeedupBin::extreme_speedup), 9.0},
      {BinDistribution::one_hot(SpeedupBin::severe_slowdown), 0.1},
  };
  const ForecastMetrics m = compute_metrics(labelled).value();
  CHECK(m.n == 2);
  CHECK(m.accuracy == 1.0);
  CHECK(m.within_one == 1.0);
  CHECK(m.ece == 0.0);
  CHECK(m.brier == 0.0);
  CHECK(m.crps == 0.0);
  CHECK(m.nll == 0.0);
  CHECK(m.aurc == 0.0);
}

TEST_CASE("forecast: metrics errors") {
  const std::vector<LabelledForecast> none;
  CHECK_FALSE(compute_metrics(none).has_value());
  const std::vector<LabelledForecast> bad{{BinDistribution::uniform(), 1.0}, {BinDistribution::uniform(), -1.0}};
  const auto m = compute_metrics(bad);
  REQUIRE_FALSE(m.has_value());
  CHECK_THAT(m.error().message, Catch::StartsWith("labelled forecast 2: speedup -1 "));
}
