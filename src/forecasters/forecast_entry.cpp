// SPDX-License-Identifier: Apache-2.0
#include "forecasters/forecast_entry.hpp"

namespace kforecast::forecasters {

report::ForecastEntry forecast_entry(std::string forecaster, std::string model,
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

}  // namespace kforecast::forecasters
