// SPDX-License-Identifier: Apache-2.0
#include "policy/trust.hpp"

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::policy;

namespace {
// A forecast with `sure` on the given bin and the rest spread evenly.
forecast::BinDistribution peaked(int bin, double sure) {
  std::vector<double> raw(8, (1.0 - sure) / 7.0);
  raw[static_cast<std::size_t>(bin - 1)] = sure;
  return *forecast::BinDistribution::from_raw(raw);
}
LedgerEntry measured(forecast::BinDistribution forecast, double speedup) {
  LedgerEntry entry;
  entry.forecast = forecast;
  entry.speedup = speedup;
  return entry;
}
}  // namespace

TEST_CASE("trust: a forecast is trusted when unlikely to regress and sure enough") {
  const TrustThresholds policy{.max_p_regression = 0.2, .min_confidence = 0.5};
  CHECK(is_trusted(peaked(5, 0.9), policy, 0.02));         // sure of a small speedup
  CHECK_FALSE(is_trusted(peaked(5, 0.45), policy, 0.02));  // not sure enough
  CHECK_FALSE(is_trusted(peaked(3, 0.9), policy, 0.02));   // sure of a regression
  CHECK(is_regression(0.97, 0.02));
  CHECK_FALSE(is_regression(0.99, 0.02));  // within the tolerance
}

TEST_CASE("trust: the rule on a summarised forecast is the rule on its distribution") {
  const TrustThresholds policy{.max_p_regression = 0.2, .min_confidence = 0.5};
  for (const auto& forecast : {peaked(5, 0.9), peaked(5, 0.45), peaked(3, 0.9), peaked(6, 0.5)})
    CHECK(is_trusted(forecast.p_regression(0.02), forecast.max_probability(), policy) ==
          is_trusted(forecast, policy, 0.02));
  SECTION("both bars are as the config states them: P(regression) below, confidence at or above") {
    CHECK_FALSE(is_trusted(0.2, 0.9, policy));
    CHECK(is_trusted(0.19, 0.5, policy));
    CHECK_FALSE(is_trusted(0.1, 0.49, policy));
  }
}

TEST_CASE("trust: evaluating a policy on measured kernels") {
  std::vector<LedgerEntry> ledger{
      measured(peaked(5, 0.9), 1.05),  // trusted, right
      measured(peaked(5, 0.9), 0.90),  // trusted, a missed regression
      measured(peaked(5, 0.3), 0.80),  // measured (unsure): a caught regression
      measured(peaked(2, 0.9), 0.40),  // measured (likely regression): caught
  };
  const auto outcome = evaluate_policy(ledger, {.max_p_regression = 0.2, .min_confidence = 0.5}, 0.02);
  CHECK(outcome.kernels == 4);
  CHECK(outcome.trusted == 2);
  CHECK(outcome.regressions == 3);
  CHECK(outcome.trusted_regressions == 1);
  CHECK(outcome.gpu_fraction == Approx(0.5));
  CHECK(*outcome.regression_recall == Approx(2.0 / 3.0));
  CHECK(*outcome.risk == Approx(0.5));
  CHECK(*outcome.risk_upper_95 > 0.5);
  CHECK(*outcome.risk_upper_95 <= 1.0);

  const auto none = evaluate_policy(ledger, {.max_p_regression = 0.0, .min_confidence = 1.0}, 0.02);
  CHECK(none.trusted == 0);
  CHECK_FALSE(none.risk.has_value());
  CHECK(none.gpu_fraction == 1.0);
}

TEST_CASE("trust: fitting thresholds trusts the most kernels at the target risk") {
  std::vector<LedgerEntry> ledger;
  // 60 sure, right forecasts; 20 less sure ones of which 4 were regressions; 10 sure regressions.
  for (int i = 0; i < 60; ++i) ledger.push_back(measured(peaked(5, 0.9), 1.1));
  for (int i = 0; i < 20; ++i) ledger.push_back(measured(peaked(5, 0.6), i < 4 ? 0.8 : 1.1));
  for (int i = 0; i < 10; ++i) ledger.push_back(measured(peaked(2, 0.9), 0.4));

  const auto strict = fit_thresholds(ledger, 0.0, 0.02);
  REQUIRE(strict.has_value());
  CHECK(strict->outcome.trusted == 60);  // only the sure ones: any unsure one risks a regression
  CHECK(strict->outcome.trusted_regressions == 0);
  CHECK(strict->thresholds.min_confidence > 0.6);
  CHECK(strict->thresholds.min_confidence <= 0.9);

  const auto loose = fit_thresholds(ledger, 0.05, 0.02);  // 4 of 80 = 0.05 is allowed
  REQUIRE(loose.has_value());
  CHECK(loose->outcome.trusted == 80);
  CHECK(*loose->outcome.risk == Approx(0.05));
  // The fitted thresholds, applied, give exactly the outcome reported.
  const auto again = evaluate_policy(ledger, loose->thresholds, 0.02);
  CHECK(again.trusted == loose->outcome.trusted);
  CHECK(again.trusted_regressions == loose->outcome.trusted_regressions);

  std::vector<LedgerEntry> all_wrong{measured(peaked(5, 0.9), 0.5)};
  CHECK_FALSE(fit_thresholds(all_wrong, 0.0, 0.02).has_value());
}
