// SPDX-License-Identifier: Apache-2.0
// Golden outputs of `kforecast eval` for two hand-made rows whose figures are worked out by hand in
// scoring_test.cpp: A (all mass on bin 5, measured 1.2) and B (uniform, measured 0.3). The
// prior here is uniform for both: its RPS is 44/64 for A (sum_{k<5} (k/8)^2 + sum_{k=5..7} (1 - k/8)^2)
// and 92/64 for B, mean 1.0625; P(regression) of the uniform forecast is 3/8 + 1/8 * (0.5 - log2(1.02)) / 0.5.

#include <sstream>

#include <catch2/catch.hpp>

#include "eval/output.hpp"
#include "kforecast_version.hpp"

using namespace kforecast;
using namespace kforecast::eval;
using forecast::BinDistribution;
using forecast::SpeedupBin;

namespace {

std::vector<EvalRow> hand_made_rows() {
  std::vector<EvalRow> rows(2);
  rows[0].id = "a-1";
  rows[0].family = "a";
  rows[0].line = 1;
  rows[0].reference_key = "x";
  rows[0].speedup = 1.2;
  rows[0].true_bin = SpeedupBin::minor_speedup;
  rows[0].forecast = BinDistribution::one_hot(SpeedupBin::minor_speedup);
  rows[1].id = "b-1";
  rows[1].family = "b";
  rows[1].line = 2;
  rows[1].reference_key = "y";
  rows[1].speedup = 0.3;
  rows[1].true_bin = SpeedupBin::significant_slowdown;
  rows[1].notes = {"candidate kernel 'k' not found in its source: forecast from what could be read"};
  return rows;
}

const PolicySettingsForEval eval_policy{{0.2, 0.5}, 0.02};

EvalRun hand_made_run() {
  return {"hand.jsonl", "embedded", "by hand", CrossValidation::none, eval_policy, 2, {"a note"}};
}

}  // namespace

TEST_CASE("eval: eval's table for the hand-made rows") {
  const auto rows = hand_made_rows();
  const auto groups = score_by_family(rows, eval_policy);
  std::ostringstream out;
  write_eval_text(out, hand_made_run(), groups);
  CHECK(
      out.str() ==
      "kforecast eval: hand.jsonl: 2 pairs in 2 families; forecaster embedded: by hand\n"
      "policy: trusted when P(regression) < 0.2000 and confidence >= 0.5000; a regression is a speedup below 0.9804 "
      "(bench.tolerance 2.0%)\n"
      "training prior: bin frequencies (add-one) of every pair of the dataset (in-sample: flatters the prior)\n"
      "\n"
      "overall (2 pairs)    forecaster  training prior  always bin 5\n"
      "  accuracy                0.500           0.000         0.500   predicted bin right (higher is better)\n"
      "  within_one              1.000           0.500         0.500   predicted bin at most one away (higher is "
      "better)\n"
      "  ece                     0.062           0.125         0.500   calibration error of the confidence, 10 "
      "buckets (lower is better)\n"
      "  brier                   0.219           0.438         0.500   half-Brier score, in [0, 1] (lower is better)\n"
      "  crps                    0.719           1.062         1.500   ranked probability score, in bins, [0, 7] "
      "(lower is better)\n"
      "  nll                     1.040           2.079         6.908   negative log-likelihood of the measured bin "
      "(lower is better)\n"
      "  aurc                    0.250           1.000         0.500   area under risk-coverage (lower: confidence "
      "ranks errors last)\n"
      "  topk_recovery             n/a             n/a           n/a   best speedup found measuring only the "
      "top-ranked candidate\n"
      "  gpu_fraction            0.500           1.000         0.000   pairs the policy sends to the GPU (lower is "
      "cheaper)\n"
      "  regression_recall       1.000           1.000         0.000   regressions sent to the GPU, not trusted "
      "(higher is safer)\n"
      "  against the training prior: brier -50%, crps -32%, nll -50%\n"
      "  regressions: 1, caught 1 (sent to the GPU), trusted 0 (would pass unmeasured)\n"
      "\n"
      "per family: the forecaster, then the baselines' brier and crps\n"
      "  family           pairs    acc     w1    ece  brier   crps    nll    gpu recall    prior b/c    bin5 b/c\n"
      "  a                    1  1.000  1.000  0.000  0.000  0.000  0.000  0.000    n/a  0.438/0.688 0.000/0.000\n"
      "  b                    1  0.000  1.000  0.125  0.438  1.438  2.079  1.000  1.000  0.438/1.438 1.000/3.000\n"
      "\n"
      "notes:\n"
      "  a note\n");
}

TEST_CASE("eval: eval's JSON for the hand-made rows") {
  const auto rows = hand_made_rows();
  const auto groups = score_by_family(rows, eval_policy);
  std::ostringstream out;
  write_eval_json(out, hand_made_run(), groups);
  const std::string expected_overall =
      "  \"overall\": {\"name\": \"overall\", \"n\": 2, \"forecaster\": {\"accuracy\": 0.5, \"within_one\": 1, "
      "\"ece\": 0.0625, \"brier\": 0.21875, \"crps\": 0.71875, \"nll\": 1.03972, \"aurc\": 0.25, \"topk_recovery\": "
      "null, \"gpu_fraction\": 0.5, \"regression_recall\": 1, \"trusted\": 1, \"regressions\": 1, "
      "\"trusted_regressions\": 0}, ";
  CHECK_THAT(out.str(), Catch::Matchers::StartsWith(std::string("{\n  \"kforecast\": \"") + kforecast::version +
                                                    "\",\n  \"dataset\": \"hand.jsonl\",\n  \"forecaster\": "
                                                    "\"embedded\",\n  \"model\": \"by hand\",\n  \"cv\": \"none\",\n"
                                                    "  \"n\": 2,\n  \"policy\": {\"max_p_regression\": 0.2, "
                                                    "\"min_confidence\": 0.5, \"tolerance\": 0.02},\n" +
                                                    expected_overall));
  CHECK_THAT(out.str(), Catch::Matchers::EndsWith("  \"notes\": [\"a note\"]\n}\n"));
}

TEST_CASE("eval: eval's predictions file, one line per row") {
  const auto rows = hand_made_rows();
  std::ostringstream out;
  write_predictions(out, rows, eval_policy);
  CHECK(out.str() ==
        "{\"id\": \"a-1\", \"family\": \"a\", \"line\": 1, \"probabilities\": [0, 0, 0, 0, 1, 0, 0, 0], "
        "\"predicted_bin\": 5, \"confidence\": 1, \"p_regression\": 0, \"decision\": \"trusted_forecast\", "
        "\"true_bin\": 5, \"speedup\": 1.2, \"regression\": false, \"prior\": [0.125, 0.125, 0.125, 0.125, 0.125, "
        "0.125, 0.125, 0.125], \"notes\": []}\n"
        "{\"id\": \"b-1\", \"family\": \"b\", \"line\": 2, \"probabilities\": [0.125, 0.125, 0.125, 0.125, 0.125, "
        "0.125, 0.125, 0.125], \"predicted_bin\": 1, \"confidence\": 0.125, \"p_regression\": "
        "0.4928577119508073, \"decision\": \"measure\", \"true_bin\": 2, \"speedup\": 0.29999999999999999, "
        "\"regression\": true, \"prior\": [0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125], \"notes\": "
        "[\"candidate kernel 'k' not found in its source: forecast from what could be read\"]}\n");
}
