// SPDX-License-Identifier: Apache-2.0
#pragma once

// The policy in `kforecast pr` (DESIGN.md step 4), after the identical-code tier and the
// forecasts: a forecast unlikely to be a regression and sure enough settles its kernel
// (trusted_forecast, pass); every other changed kernel needs a GPU measurement: it is unverified
// (policy.on_unverified: warn or fail) until the measuring step (cli/measure_step.hpp) measures
// it. New kernels have nothing to compare with.

#include <cstddef>
#include <vector>

#include "policy/trust.hpp"
#include "report/report.hpp"

namespace kforecast::cli {

struct PolicySettings {
  policy::TrustThresholds thresholds;
  double tolerance = 0.02;       // bench.tolerance
  bool fail_unverified = false;  // policy.on_unverified = "fail"
};

// Decides every entry still open (forecast_only, warn) and sets the gate verdict; returns the
// entries that need a GPU measurement, in report order.
std::vector<std::size_t> apply_policy(report::Report& report, const PolicySettings& settings);

}  // namespace kforecast::cli
