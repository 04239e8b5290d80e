// SPDX-License-Identifier: Apache-2.0
#pragma once

// Selective prediction: trust the forecasts the forecaster is surest of, defer the rest to the
// GPU. The risk-coverage curve says what error rate each level of trust costs; its area (AURC)
// scores how well a confidence score ranks right forecasts above wrong ones.

#include <cstddef>
#include <span>
#include <vector>

#include "base/error.hpp"

namespace kforecast::forecast {

// One forecast's confidence (any ConfidenceScore; only its order matters) and its loss, e.g. 1
// for a wrong predicted bin and 0 for a right one.
struct ScoredPrediction {
  double confidence = 0.0;
  double loss = 0.0;
};

// Trusting the `covered` most confident forecasts (a fraction `coverage` of all) gives mean loss
// `risk` among them.
struct RiskCoveragePoint {
  std::size_t covered = 0;
  double coverage = 0.0;
  double risk = 0.0;
};

// Predictions sorted by confidence, highest first. Predictions of equal confidence cannot be
// told apart, so they are covered together: points fall only at the end of each group of equal
// confidence, and the curve does not depend on input order. The last point has coverage 1.
// Errors: empty input, a confidence or a loss that is not finite.
Result<std::vector<RiskCoveragePoint>> risk_coverage_curve(std::span<const ScoredPrediction> predictions);

// Area under the risk-coverage curve: the mean, over k = 1..N, of the risk when the k most
// confident are covered. Within a group of equal confidence every k takes the group's risk, so
// each point is weighted by the size of its group: sum over points of (group size / N) * risk.
// Lower is better; with 0/1 losses it lies in [0, 1]. Errors as for risk_coverage_curve.
Result<double> area_under_risk_coverage(std::span<const ScoredPrediction> predictions);

}  // namespace kforecast::forecast
