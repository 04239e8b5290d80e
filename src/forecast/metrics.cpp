// SPDX-License-Identifier: Apache-2.0
#include "forecast/metrics.hpp"

#include <vector>

#include <fmt/format.h>

#include "forecast/calibration.hpp"
#include "forecast/scoring.hpp"
#include "forecast/selective.hpp"

namespace kforecast::forecast {

Result<ForecastMetrics> compute_metrics(std::span<const LabelledForecast> labelled) {
  if (labelled.empty()) return fail(ExitCode::could_not_run, "no labelled forecasts to score");

  std::vector<ForecastOutcome> outcomes;
  std::vector<ConfidenceOutcome> confidences;
  std::vector<ScoredPrediction> scored;
  outcomes.reserve(labelled.size());
  confidences.reserve(labelled.size());
  scored.reserve(labelled.size());
  for (std::size_t i = 0; i < labelled.size(); ++i) {
    const auto true_bin = bin_from_speedup(labelled[i].measured_speedup);
    if (!true_bin) {
      return fail(true_bin.error().exit_code, fmt::format("labelled forecast {}: {}", i + 1, true_bin.error().message));
    }
    const BinDistribution& forecast = labelled[i].forecast;
    const bool correct = forecast.predicted_bin() == *true_bin;
    outcomes.push_back({forecast, *true_bin});
    confidences.push_back({forecast.max_probability(), correct});
    scored.push_back({forecast.max_probability(), correct ? 0.0 : 1.0});
  }

  // Every input below is non-empty and valid, so none of these can fail.
  return ForecastMetrics{
      .n = labelled.size(),
      .accuracy = accuracy(outcomes).value(),
      .within_one = within_one_accuracy(outcomes).value(),
      .ece = expected_calibration_error(confidences).value(),
      .brier = mean_half_brier(outcomes).value(),
      .crps = mean_ranked_probability_score(outcomes).value(),
      .nll = mean_negative_log_likelihood(outcomes).value(),
      .aurc = area_under_risk_coverage(scored).value(),
  };
}

}  // namespace kforecast::forecast
