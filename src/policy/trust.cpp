// SPDX-License-Identifier: Apache-2.0
#include "policy/trust.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace kforecast::policy {
namespace {

using forecast::ConfidenceScore;

// One-sided 95% Wilson score upper bound of a proportion k / n.
double wilson_upper_95(std::size_t k, std::size_t n) {
  constexpr double z = 1.6448536269514722;
  const double total = static_cast<double>(n), p = static_cast<double>(k) / total, z2 = z * z;
  return std::min(
      1.0, (p + z2 / (2 * total) + z * std::sqrt(p * (1 - p) / total + z2 / (4 * total * total))) / (1 + z2 / total));
}

// Thresholds are printed with four decimals, so they are chosen on that grid: the confidence
// bar rounded down (it still admits the value), the P(regression) bar rounded up past the value.
double grid_at_or_below(double value) { return std::floor(value * 1e4) / 1e4; }
double grid_above(double value) { return std::floor(value * 1e4 + 1) / 1e4; }

struct Scored {
  double confidence, p_regression;
  bool regression;
};

}  // namespace

bool is_regression(double speedup, double tolerance) { return speedup < 1.0 / (1.0 + tolerance); }

bool is_trusted(const forecast::BinDistribution& forecast, const TrustThresholds& thresholds, double tolerance) {
  return is_trusted(forecast.p_regression(tolerance), forecast.confidence(ConfidenceScore::max_probability),
                    thresholds);
}

bool is_trusted(double p_regression, double confidence, const TrustThresholds& thresholds) {
  return p_regression < thresholds.max_p_regression && confidence >= thresholds.min_confidence;
}

PolicyOutcome evaluate_policy(std::span<const LedgerEntry> entries, const TrustThresholds& thresholds,
                              double tolerance) {
  PolicyOutcome outcome;
  outcome.kernels = entries.size();
  for (const LedgerEntry& entry : entries) {
    const bool regression = entry.speedup && is_regression(*entry.speedup, tolerance);
    const bool trusted = is_trusted(entry.forecast, thresholds, tolerance);
    outcome.regressions += regression;
    outcome.trusted += trusted;
    outcome.trusted_regressions += regression && trusted;
  }
  if (outcome.kernels > 0)
    outcome.gpu_fraction =
        static_cast<double>(outcome.kernels - outcome.trusted) / static_cast<double>(outcome.kernels);
  if (outcome.regressions > 0)
    outcome.regression_recall = static_cast<double>(outcome.regressions - outcome.trusted_regressions) /
                                static_cast<double>(outcome.regressions);
  if (outcome.trusted > 0) {
    outcome.risk = static_cast<double>(outcome.trusted_regressions) / static_cast<double>(outcome.trusted);
    outcome.risk_upper_95 = wilson_upper_95(outcome.trusted_regressions, outcome.trusted);
  }
  return outcome;
}

std::optional<FittedThresholds> fit_thresholds(std::span<const LedgerEntry> entries, double target_risk,
                                               double tolerance) {
  std::vector<Scored> scored;
  for (const LedgerEntry& entry : entries)
    scored.push_back({entry.forecast.confidence(ConfidenceScore::max_probability),
                      entry.forecast.p_regression(tolerance),
                      entry.speedup && is_regression(*entry.speedup, tolerance)});
  std::vector<double> confidence_bars;
  for (const Scored& s : scored) confidence_bars.push_back(grid_at_or_below(s.confidence));
  std::ranges::sort(confidence_bars);
  confidence_bars.erase(std::unique(confidence_bars.begin(), confidence_bars.end()), confidence_bars.end());

  struct Best {
    TrustThresholds thresholds;
    std::size_t trusted = 0, errors = 0;
  };
  std::optional<Best> best;
  auto better = [&](std::size_t trusted, std::size_t errors, const Best& than) {
    if (trusted != than.trusted) return trusted > than.trusted;
    return errors * than.trusted < than.errors * trusted;  // lower risk; equal: keep the stricter (found first)
  };
  // For each confidence bar (strictest first), sweep the P(regression) bar upwards over the
  // admitted forecasts: each step trusts the forecasts below the new bar.
  for (auto bar = confidence_bars.rbegin(); bar != confidence_bars.rend(); ++bar) {
    std::vector<Scored> admitted;
    for (const Scored& s : scored)
      if (s.confidence >= *bar) admitted.push_back(s);
    std::ranges::sort(admitted, {}, &Scored::p_regression);
    std::size_t trusted = 0, errors = 0;
    for (std::size_t i = 0; i < admitted.size();) {
      const double p_bar = grid_above(admitted[i].p_regression);
      for (; i < admitted.size() && admitted[i].p_regression < p_bar; ++i) {
        ++trusted;
        errors += admitted[i].regression;
      }
      if (p_bar > 1.0) break;  // a bar above 1 trusts regardless of P(regression): not a threshold
      const bool within = static_cast<double>(errors) <= target_risk * static_cast<double>(trusted);
      if (within && (!best || better(trusted, errors, *best))) best = Best{{p_bar, *bar}, trusted, errors};
    }
  }
  if (!best) return std::nullopt;
  return FittedThresholds{best->thresholds, evaluate_policy(entries, best->thresholds, tolerance)};
}

}  // namespace kforecast::policy
