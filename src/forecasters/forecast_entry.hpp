// SPDX-License-Identifier: Apache-2.0
#pragma once

// A forecaster's distribution as the report's forecast object: bin, label, probabilities,
// confidence and P(regression) at the gate's tolerance. Every forecaster reports through this.

#include <string>

#include "forecast/bin_distribution.hpp"
#include "report/report.hpp"

namespace kforecast::forecasters {

report::ForecastEntry forecast_entry(std::string forecaster, std::string model,
                                     const forecast::BinDistribution& distribution, double tolerance,
                                     std::string rationale);

}  // namespace kforecast::forecasters
