// SPDX-License-Identifier: Apache-2.0
#pragma once

// How good the forecasts were on a repository's measured kernels (the ledger), what the
// configured thresholds did with them, and which thresholds would have held a target error rate
// among trusted forecasts: `kforecast calibration`'s figures, and its text and JSON.

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>

#include "base/error.hpp"
#include "forecast/metrics.hpp"
#include "policy/ledger.hpp"
#include "policy/trust.hpp"

namespace kforecast::policy {

struct LedgerCalibration {
  std::string ledger;  // the ledger's path, as the output names it
  std::size_t measured = 0, failed_measurements = 0;
  double tolerance = 0.02;  // bench.tolerance
  forecast::ForecastMetrics metrics;
  TrustThresholds current;  // the configured policy
  PolicyOutcome current_outcome;
  double target_risk = 0.02;
  std::optional<FittedThresholds> fitted;  // none: no thresholds trust any kernel at target_risk
};

// The figures of `reading` (the ledger named `ledger`). Errors: no measured kernel with a
// speedup yet.
Result<LedgerCalibration> calibrate(const LedgerReading& reading, std::string ledger, const TrustThresholds& current,
                                    double tolerance, double target_risk);

void write_calibration_text(std::ostream& out, const LedgerCalibration& calibration);
void write_calibration_json(std::ostream& out, const LedgerCalibration& calibration);

}  // namespace kforecast::policy
