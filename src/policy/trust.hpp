// SPDX-License-Identifier: Apache-2.0
#pragma once

// The trusted-forecast tier: a forecast settles a kernel without the GPU only
// when it is unlikely to be a regression and sure of itself; everything else is measured. And
// how a set of thresholds would have fared on the ledger's measured kernels, and which
// thresholds would have held a target error rate among trusted forecasts.

#include <cstddef>
#include <optional>
#include <span>

#include "forecast/bin_distribution.hpp"
#include "policy/ledger.hpp"

namespace kforecast::policy {

struct TrustThresholds {
  double max_p_regression = 0.2;  // policy.max_p_regression: trusted only below this
  double min_confidence = 0.5;    // policy.min_confidence: trusted only at or above this
};

// `tolerance` is bench.tolerance: a regression is a slowdown beyond it.
bool is_trusted(const forecast::BinDistribution& forecast, const TrustThresholds& thresholds, double tolerance);

// The same rule on a forecast already summarised at bench.tolerance, as a report's forecast
// entry holds it: its P(regression) and its confidence (the most probable bin's probability).
bool is_trusted(double p_regression, double confidence, const TrustThresholds& thresholds);

// Whether a measured speedup is a regression beyond `tolerance`: S < 1 / (1 + tolerance).
bool is_regression(double speedup, double tolerance);

// What the policy would have done with the ledger's kernels. The error that matters is a
// regression the policy trusted (the gate would have passed it): `risk` is their share of the
// trusted forecasts, `risk_upper_95` a one-sided 95% Wilson upper bound on it.
struct PolicyOutcome {
  std::size_t kernels = 0, trusted = 0, regressions = 0, trusted_regressions = 0;
  double gpu_fraction = 0.0;                // measured (not trusted) / kernels
  std::optional<double> regression_recall;  // regressions sent to the GPU / regressions; none without regressions
  std::optional<double> risk;               // trusted regressions / trusted; none when nothing is trusted
  std::optional<double> risk_upper_95;
};

PolicyOutcome evaluate_policy(std::span<const LedgerEntry> entries, const TrustThresholds& thresholds,
                              double tolerance);

struct FittedThresholds {
  TrustThresholds thresholds;  // on a 1e-4 grid, as printed
  PolicyOutcome outcome;
};

// The thresholds that trust the most kernels while the risk among them stays at or below
// `target_risk`; ties go to the lower risk, then to the stricter thresholds. None when no
// threshold trusts any kernel at that risk. Entries must have a speedup.
std::optional<FittedThresholds> fit_thresholds(std::span<const LedgerEntry> entries, double target_risk,
                                               double tolerance);

}  // namespace kforecast::policy
