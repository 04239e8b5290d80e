// SPDX-License-Identifier: Apache-2.0
#pragma once

// The forecast-quality metrics that `kforecast eval` and `kforecast calibration` print
// on the speedup bins (forecast/speedup_bin.hpp), computed from forecasts and the speedups measured for them.
// Metrics that need a policy (gpu_fraction, regression_recall) or groups of alternatives
// (topk_recovery) are computed where those exist.

#include <cstddef>
#include <span>

#include "base/error.hpp"
#include "forecast/bin_distribution.hpp"

namespace kforecast::forecast {

struct LabelledForecast {
  BinDistribution forecast;
  double measured_speedup = 0.0;  // its bin is the true bin
};

// Means over all forecasts. Confidence is max_probability throughout (as the policy reads it); ece uses 10
// buckets; crps is the raw ranked probability score (in [0, 7]); nll is floored at 1e-6; aurc
// uses 0/1 loss on the predicted bin.
struct ForecastMetrics {
  std::size_t n = 0;
  double accuracy = 0.0;
  double within_one = 0.0;
  double ece = 0.0;
  double brier = 0.0;  // half-Brier, in [0, 1]
  double crps = 0.0;
  double nll = 0.0;
  double aurc = 0.0;
};

// Errors: no forecasts; a measured speedup that is not finite and > 0 (named by its position).
Result<ForecastMetrics> compute_metrics(std::span<const LabelledForecast> labelled);

}  // namespace kforecast::forecast
