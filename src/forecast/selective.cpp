// SPDX-License-Identifier: Apache-2.0
#include "forecast/selective.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace kforecast::forecast {

Result<std::vector<RiskCoveragePoint>> risk_coverage_curve(std::span<const ScoredPrediction> predictions) {
  if (predictions.empty()) return fail(ExitCode::could_not_run, "no predictions to build a risk-coverage curve from");
  for (std::size_t i = 0; i < predictions.size(); ++i) {
    if (!std::isfinite(predictions[i].confidence) || !std::isfinite(predictions[i].loss)) {
      return fail(ExitCode::could_not_run,
                  fmt::format("prediction {} has confidence {} and loss {}; both must be finite", i + 1,
                              predictions[i].confidence, predictions[i].loss));
    }
  }
  std::vector<ScoredPrediction> sorted(predictions.begin(), predictions.end());
  // Ordering ties by loss too makes the summation order, and so every bit of the result,
  // independent of input order.
  std::sort(sorted.begin(), sorted.end(), [](const ScoredPrediction& a, const ScoredPrediction& b) {
    if (a.confidence != b.confidence) return a.confidence > b.confidence;
    return a.loss < b.loss;
  });

  const auto total = static_cast<double>(sorted.size());
  std::vector<RiskCoveragePoint> curve;
  double loss_sum = 0.0;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    loss_sum += sorted[i].loss;
    const bool ends_group = i + 1 == sorted.size() || sorted[i + 1].confidence != sorted[i].confidence;
    if (!ends_group) continue;
    const std::size_t covered = i + 1;
    curve.push_back({covered, static_cast<double>(covered) / total, loss_sum / static_cast<double>(covered)});
  }
  return curve;
}

Result<double> area_under_risk_coverage(std::span<const ScoredPrediction> predictions) {
  const auto curve = risk_coverage_curve(predictions);
  if (!curve) return std::unexpected(curve.error());
  double area = 0.0;
  std::size_t previous = 0;
  for (const RiskCoveragePoint& point : *curve) {
    area += static_cast<double>(point.covered - previous) * point.risk;
    previous = point.covered;
  }
  return area / static_cast<double>(predictions.size());
}

}  // namespace kforecast::forecast
