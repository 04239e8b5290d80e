// SPDX-License-Identifier: Apache-2.0
// The figures of `kforecast eval` on rows made by hand, with every expected number worked out
// below from the definitions (the speedup bins of docs/getting-started.md), not from the code.

#include <catch2/catch.hpp>

#include "eval/scoring.hpp"

using namespace kforecast;
using namespace kforecast::eval;
using forecast::BinDistribution;
using forecast::SpeedupBin;

namespace {

EvalRow row(std::string family, std::string reference, BinDistribution forecast, double speedup) {
  EvalRow r;
  r.id = family + "/" + reference;
  r.family = std::move(family);
  r.reference_key = r.family + reference;
  r.speedup = speedup;
  r.true_bin = forecast::bin_from_speedup(speedup).value();
  r.forecast = forecast;
  r.prior = BinDistribution::uniform();
  return r;
}

const PolicySettingsForEval default_policy{{0.2, 0.5}, 0.02};

}  // namespace

TEST_CASE("eval: eval scores two hand-made rows as worked out by hand") {
  // A: all mass on bin 5, measured 1.2 (bin 5). B: uniform, measured 0.3 (bin 2); a tie predicts
  // the lowest bin, 1.
  const std::vector<EvalRow> rows{row("a", "x", BinDistribution::one_hot(SpeedupBin::minor_speedup), 1.2),
                                  row("b", "y", BinDistribution::uniform(), 0.3)};
  const auto groups = score_by_family(rows, default_policy);
  REQUIRE(groups.size() == 3);
  CHECK(groups[0].name == "a");
  CHECK(groups[1].name == "b");
  REQUIRE(groups[2].name == "overall");
  const auto& f = groups[2].forecaster;
  CHECK(f.metrics.n == 2);
  CHECK(f.metrics.accuracy == Approx(0.5));
  CHECK(f.metrics.within_one == Approx(1.0));  // B: bin 1 for bin 2
  // Half-Brier of B: 0.5 * (7 * (1/8)^2 + (7/8)^2) = 0.4375; A scores 0.
  CHECK(f.metrics.brier == Approx(0.4375 / 2));
  // RPS of B: (1/8 - 0)^2 + sum_{k=2..7} (k/8 - 1)^2 = (1 + 36 + 25 + 16 + 9 + 4 + 1) / 64 = 1.4375.
  CHECK(f.metrics.crps == Approx(1.4375 / 2));
  CHECK(f.metrics.nll == Approx(std::log(8.0) / 2));
  // ECE: A in the top bucket (confidence 1, right: gap 0), B in [0.1, 0.2) (0.125, wrong: gap 0.125).
  CHECK(f.metrics.ece == Approx(0.0625));
  // AURC: trusting A alone risks 0, both 1/2: mean 0.25.
  CHECK(f.metrics.aurc == Approx(0.25));
  CHECK_FALSE(f.topk_recovery.has_value());  // no reference has two candidates
  // Policy: A trusted (P(regression) 0, confidence 1); B measured (confidence 1/8). B is the only
  // regression and it goes to the GPU.
  CHECK(f.policy.gpu_fraction == Approx(0.5));
  REQUIRE(f.policy.regression_recall.has_value());
  CHECK(*f.policy.regression_recall == Approx(1.0));

  // Always bin 5: A right, B 3 bins off with nothing on its bin.
  const auto& five = groups[2].always_bin_5;
  CHECK(five.metrics.accuracy == Approx(0.5));
  CHECK(five.metrics.within_one == Approx(0.5));
  CHECK(five.metrics.brier == Approx(0.5));  // B: 0.5 * (1 + 1)
  CHECK(five.metrics.crps == Approx(1.5));   // B: cumulative gaps at k = 2, 3, 4
  CHECK(five.metrics.nll == Approx(-std::log(1e-6) / 2));
  CHECK(five.policy.gpu_fraction == Approx(0.0));  // sure of itself, never a regression: trusts all
  CHECK(*five.policy.regression_recall == Approx(0.0));

  // The training prior here is uniform for both (set by hand above).
  const auto& prior = groups[2].training_prior;
  CHECK(prior.metrics.accuracy == Approx(0.0));
  CHECK(prior.metrics.brier == Approx(0.4375));
  CHECK(prior.policy.gpu_fraction == Approx(1.0));

  // Per family: A alone is perfect.
  CHECK(groups[0].forecaster.metrics.brier == Approx(0.0));
  CHECK_FALSE(groups[0].forecaster.policy.regression_recall.has_value());  // no regression in family a
}

TEST_CASE("eval: eval's top-k recovery measures the candidate ranked first per reference") {
  // One reference, two candidates: the forecaster ranks C (bin 7) above D (bin 3), but D was
  // 3x faster and C 1.1x: measuring C alone finds 1.1 / 3.0 of the best.
  const std::vector<EvalRow> rows{row("f", "ref", BinDistribution::one_hot(SpeedupBin::high_speedup), 1.1),
                                  row("f", "ref", BinDistribution::one_hot(SpeedupBin::moderate_slowdown), 3.0),
                                  row("f", "other", BinDistribution::uniform(), 1.0)};
  const auto groups = score_by_family(rows, default_policy);
  REQUIRE(groups.back().forecaster.topk_recovery.has_value());
  CHECK(*groups.back().forecaster.topk_recovery == Approx(1.1 / 3.0));
}

TEST_CASE("eval: eval's training prior is add-one bin frequencies, of the other families under --cv family") {
  const std::vector<SpeedupBin> bins{SpeedupBin::minor_speedup, SpeedupBin::minor_speedup,
                                     SpeedupBin::significant_slowdown};
  const auto prior = training_prior(bins);
  CHECK(prior.probability(SpeedupBin::minor_speedup) == Approx(3.0 / 11));
  CHECK(prior.probability(SpeedupBin::significant_slowdown) == Approx(2.0 / 11));
  CHECK(prior.probability(SpeedupBin::extreme_speedup) == Approx(1.0 / 11));

  // Family a measured in bin 8, b and c in bin 2: a's prior must not see a's own rows.
  std::vector<EvalRow> rows{row("a", "x", BinDistribution::uniform(), 5.0),
                            row("b", "x", BinDistribution::uniform(), 0.3),
                            row("c", "x", BinDistribution::uniform(), 0.3)};
  set_training_priors(rows, CrossValidation::family);
  CHECK(rows[0].prior.probability(SpeedupBin::extreme_speedup) == Approx(1.0 / 10));
  CHECK(rows[0].prior.probability(SpeedupBin::significant_slowdown) == Approx(3.0 / 10));
  CHECK(rows[1].prior.probability(SpeedupBin::extreme_speedup) == Approx(2.0 / 10));
  set_training_priors(rows, CrossValidation::none);  // in-sample: every row's bin counts
  CHECK(rows[0].prior.probability(SpeedupBin::extreme_speedup) == Approx(2.0 / 11));
}
