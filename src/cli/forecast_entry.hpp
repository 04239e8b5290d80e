// SPDX-License-Identifier: Apache-2.0
#pragma once

// A forecaster's distribution as the report's forecast object: bin, label, probabilities,
// confidence and P(regression) at the gate's tolerance. Both forecasters report through this.

#include <string>

#include "forecast/bin_distribution.hpp"
#include "report/report.hpp"

namespace kforecast::cli {

inline report::ForecastEntry forecast_entry(std::string forecaster, std::string model,
                                            const forecast::BinDistribution& distribution, double tolerance,
                                            std::string rationale) {
  const auto bin = distribution.predicted_bin();
  report::ForecastEntry entry;
  entry.forecaster = std::move(forecaster);
  entry.model = std::move(model);
  entry.bin = forecast::bin_number(bin);
  entry.bin_label = std::string(forecast::bin_label(bin));
  entry.probabilities = distribution.probabilities();
  entry.confidence = distribution.max_probability();
  entry.p_regression = distribution.p_regression(tolerance);
  entry.rationale = std::move(rationale);
  entry.raw_sum = distribution.raw_sum();
  return entry;
}

// A kernel a forecaster gave no forecast for, and why (for the LLM, the endpoint's error with
// the key redacted).
struct ForecastFailure {
  std::size_t entry = 0;  // index into Report::kernels
  std::string reason;
};

}  // namespace kforecast::cli
