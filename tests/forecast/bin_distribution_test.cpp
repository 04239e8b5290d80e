// SPDX-License-Identifier: Apache-2.0
#include "forecast/bin_distribution.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::forecast;

namespace {

BinDistribution make(std::vector<double> raw) { return BinDistribution::from_raw(raw).value(); }

// A hand-made forecast leaning to a minor speedup.
const std::vector<double> leaning_faster{0.0, 0.0, 0.1, 0.2, 0.5, 0.2, 0.0, 0.0};

}  // namespace

TEST_CASE("forecast: from_raw rejects what is not a distribution") {
  SECTION("seven values") {
    const auto d = BinDistribution::from_raw(std::vector<double>{0.1, 0.1, 0.1, 0.1, 0.2, 0.2, 0.2});
    REQUIRE_FALSE(d.has_value());
    CHECK(d.error().message == "expected 8 probabilities (one per speedup bin), got 7");
  }
  SECTION("NaN names its bin") {
    const auto d = BinDistribution::from_raw(std::vector<double>{0.5, std::nan(""), 0.5, 0, 0, 0, 0, 0});
    REQUIRE_FALSE(d.has_value());
    CHECK(d.error().message == "probability for bin 2 is nan; each must be finite and >= 0");
  }
  SECTION("infinity") {
    const double inf = std::numeric_limits<double>::infinity();
    CHECK_FALSE(BinDistribution::from_raw(std::vector<double>{0, 0, 0, 0, 0, 0, 0, inf}).has_value());
  }
  SECTION("negative names its bin and value") {
    const auto d = BinDistribution::from_raw(std::vector<double>{0.3, 0.3, -0.2, 0.3, 0.3, 0, 0, 0});
    REQUIRE_FALSE(d.has_value());
    CHECK(d.error().message == "probability for bin 3 is -0.2; each must be finite and >= 0");
  }
  SECTION("sum 0.5 is outside tolerance 0.05") {
    const auto d = BinDistribution::from_raw(std::vector<double>{0.5, 0, 0, 0, 0, 0, 0, 0}, 0.05);
    REQUIRE_FALSE(d.has_value());
    CHECK(d.error().message == "probabilities sum to 0.5; the sum must be within 0.05 of 1");
  }
  SECTION("sum 0.5 is accepted by a tolerance of 0.5") {
    CHECK(BinDistribution::from_raw(std::vector<double>{0.5, 0, 0, 0, 0, 0, 0, 0}, 0.5).has_value());
  }
  SECTION("sum 1.06 is outside the default tolerance") {
    CHECK_FALSE(BinDistribution::from_raw(std::vector<double>{1.06, 0, 0, 0, 0, 0, 0, 0}).has_value());
  }
  SECTION("sum 0 is an error whatever the tolerance") {
    const auto d = BinDistribution::from_raw(std::vector<double>(8, 0.0), 10.0);
    REQUIRE_FALSE(d.has_value());
    CHECK_THAT(d.error().message, Catch::Contains("sum to 0"));
  }
  SECTION("a negative tolerance is a usage error") {
    const auto d = BinDistribution::from_raw(leaning_faster, -0.1);
    REQUIRE_FALSE(d.has_value());
    CHECK(d.error().exit_code == ExitCode::usage);
  }
}

TEST_CASE("forecast: from_raw renormalises and keeps the raw sum") {
  // 0.3 + 0.2 + 0.53 = 1.03, within 0.05 of 1.
  const BinDistribution d = make({0, 0, 0, 0.3, 0.53, 0.2, 0, 0});
  CHECK(d.raw_sum() == Approx(1.03));
  CHECK(d.probability(SpeedupBin::minor_slowdown) == Approx(0.291262));       // 0.3 / 1.03
  CHECK(d.probability(SpeedupBin::minor_speedup) == Approx(0.514563));        // 0.53 / 1.03
  CHECK(d.probability(SpeedupBin::significant_speedup) == Approx(0.194175));  // 0.2 / 1.03
  CHECK(d.probability(SpeedupBin::severe_slowdown) == 0.0);
  double sum = 0.0;
  for (const double p : d.probabilities()) sum += p;
  CHECK(sum == Approx(1.0));
}

TEST_CASE("forecast: one-hot and uniform") {
  const BinDistribution hot = BinDistribution::one_hot(SpeedupBin::high_speedup);
  CHECK(hot.probability(SpeedupBin::high_speedup) == 1.0);
  CHECK(hot.probability(SpeedupBin::extreme_speedup) == 0.0);
  CHECK(hot.raw_sum() == 1.0);
  CHECK(hot.predicted_bin() == SpeedupBin::high_speedup);

  const BinDistribution flat = BinDistribution::uniform();
  CHECK(flat.probability(SpeedupBin::minor_speedup) == 0.125);
  CHECK(flat.raw_sum() == 1.0);
}

TEST_CASE("forecast: predicted bin is the argmax, ties to the lower bin") {
  CHECK(make(leaning_faster).predicted_bin() == SpeedupBin::minor_speedup);
  SECTION("a tie between bins 4 and 5 goes to 4, the pessimistic one") {
    CHECK(make({0, 0, 0, 0.4, 0.4, 0.2, 0, 0}).predicted_bin() == SpeedupBin::minor_slowdown);
  }
  SECTION("a tie between bins 2 and 7 goes to 2") {
    CHECK(make({0, 0.5, 0, 0, 0, 0, 0.5, 0}).predicted_bin() == SpeedupBin::significant_slowdown);
  }
  SECTION("uniform predicts bin 1") {
    CHECK(BinDistribution::uniform().predicted_bin() == SpeedupBin::severe_slowdown);
  }
}

TEST_CASE("forecast: confidence scores") {
  SECTION("one-hot: certain") {
    const BinDistribution d = BinDistribution::one_hot(SpeedupBin::minor_slowdown);
    CHECK(d.max_probability() == 1.0);
    CHECK(d.negative_entropy() == 0.0);  // 1 ln 1, and 0 ln 0 taken as 0
    CHECK(d.top2_margin() == 1.0);       // 1 - 0
  }
  SECTION("uniform: knows nothing") {
    const BinDistribution d = BinDistribution::uniform();
    CHECK(d.max_probability() == 0.125);
    CHECK(d.negative_entropy() == Approx(-2.0794415));  // 8 * (1/8) ln(1/8) = -ln 8
    CHECK(d.top2_margin() == 0.0);
  }
  SECTION("hand-made {.1 .2 .5 .2} on bins 3-6") {
    const BinDistribution d = make(leaning_faster);
    CHECK(d.max_probability() == Approx(0.5));
    // 0.1 ln 0.1 + 2 * 0.2 ln 0.2 + 0.5 ln 0.5 = -0.230259 - 0.643775 - 0.346574 = -1.220607
    CHECK(d.negative_entropy() == Approx(-1.220607));
    CHECK(d.top2_margin() == Approx(0.3));  // 0.5 - 0.2
    CHECK(d.confidence(ConfidenceScore::max_probability) == Approx(0.5));
    CHECK(d.confidence(ConfidenceScore::negative_entropy) == Approx(-1.220607));
    CHECK(d.confidence(ConfidenceScore::top2_margin) == Approx(0.3));
  }
  SECTION("a tie at the top has margin 0") { CHECK(make({0, 0, 0, 0.4, 0.4, 0.2, 0, 0}).top2_margin() == Approx(0.0)); }
}

TEST_CASE("forecast: P(regression)") {
  const BinDistribution d = make({0.05, 0.05, 0.1, 0.2, 0.3, 0.2, 0.05, 0.05});
  SECTION("tolerance 0 is the mass of bins 1-4") {
    CHECK(d.p_regression(0.0) == Approx(0.4));  // 0.05 + 0.05 + 0.1 + 0.2
    CHECK(BinDistribution::one_hot(SpeedupBin::minor_slowdown).p_regression(0.0) == 1.0);
    CHECK(BinDistribution::one_hot(SpeedupBin::minor_speedup).p_regression(0.0) == 0.0);
    CHECK(BinDistribution::uniform().p_regression(0.0) == Approx(0.5));
  }
  SECTION("tolerance 0.02 takes part of bin 4") {
    // threshold log2(1/1.02) = -0.0285691; bin 4 spans [-0.5, 0], so (0.5 - 0.0285691) / 0.5
    // = 0.9428618 of its mass is below: 0.2 + 0.2 * 0.9428618 = 0.3885724
    CHECK(d.p_regression(0.02) == Approx(0.3885724));
    CHECK(make(leaning_faster).p_regression(0.02) == Approx(0.2885724));  // 0.1 + 0.2 * 0.9428618
    CHECK(BinDistribution::one_hot(SpeedupBin::minor_slowdown).p_regression(0.02) == Approx(0.9428618));
  }
  SECTION("a tolerance reaching into bin 3") {
    // 1/(1+t) = 0.6 -> log2 = -0.7369656; bin 3 spans [-1, -0.5]: (-0.7369656 + 1) / 0.5 = 0.5260688
    CHECK(BinDistribution::one_hot(SpeedupBin::moderate_slowdown).p_regression(1.0 / 0.6 - 1.0) == Approx(0.5260688));
    CHECK(BinDistribution::one_hot(SpeedupBin::minor_slowdown).p_regression(1.0 / 0.6 - 1.0) == 0.0);
  }
  SECTION("a negative tolerance asks for a minimum speedup") {
    // 1/(1-0.2) = 1.25 -> log2 = 0.3219281; bin 5 spans [0, 0.5]: 0.6438562 of it counts
    CHECK(BinDistribution::one_hot(SpeedupBin::minor_speedup).p_regression(-0.2) == Approx(0.6438562));
  }
  SECTION("an impossible tolerance is a programming error") {
    CHECK_THROWS_AS(d.p_regression(-1.0), Fatal);
    CHECK_THROWS_AS(d.p_regression(std::nan("")), Fatal);
  }
}

TEST_CASE("forecast: expected speedup is geometric") {
  // 0.1 * -0.75 + 0.2 * -0.25 + 0.5 * 0.25 + 0.2 * 0.75 = -0.075 - 0.05 + 0.125 + 0.15 = 0.15
  const BinDistribution d = make(leaning_faster);
  CHECK(d.expected_log2_speedup() == Approx(0.15));
  CHECK(d.expected_speedup() == Approx(1.1095694));                                        // 2^0.15
  CHECK(BinDistribution::uniform().expected_log2_speedup() == Approx(0.0).margin(1e-12));  // symmetric midpoints
  CHECK(BinDistribution::one_hot(SpeedupBin::high_speedup).expected_speedup() == Approx(2.8284271));  // 2^1.5
  SECTION("2x slower or 2x faster, evenly, averages to no change") {
    // bins 3 and 6 midpoints: -0.75 and +0.75
    CHECK(make({0, 0, 0.5, 0, 0, 0.5, 0, 0}).expected_speedup() == Approx(1.0));
  }
}
