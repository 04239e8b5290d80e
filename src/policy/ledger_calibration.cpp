// SPDX-License-Identifier: Apache-2.0
#include "policy/ledger_calibration.hpp"

#include <ostream>
#include <vector>

#include <fmt/format.h>

#include "base/json_string.hpp"

namespace kforecast::policy {
namespace {

std::string optional_number(const std::optional<double>& value) {
  return value ? fmt::format("{:.4f}", *value) : "n/a";
}
std::string json_number(const std::optional<double>& value) { return value ? fmt::format("{:.6g}", *value) : "null"; }

std::string json_outcome(const TrustThresholds& thresholds, const PolicyOutcome& outcome) {
  return fmt::format(
      "{{\"max_p_regression\": {:.6g}, \"min_confidence\": {:.6g}, \"trusted\": {}, \"regressions\": {}, "
      "\"trusted_regressions\": {}, \"gpu_fraction\": {:.6g}, \"regression_recall\": {}, \"risk\": {}, "
      "\"risk_upper_95\": {}}}",
      thresholds.max_p_regression, thresholds.min_confidence, outcome.trusted, outcome.regressions,
      outcome.trusted_regressions, outcome.gpu_fraction, json_number(outcome.regression_recall),
      json_number(outcome.risk), json_number(outcome.risk_upper_95));
}

void print_outcome(std::ostream& out, const PolicyOutcome& outcome) {
  out << fmt::format("  trusted             {} of {} (gpu_fraction {:.3f})\n", outcome.trusted, outcome.kernels,
                     outcome.gpu_fraction);
  out << fmt::format("  regressions         {}, {} of them sent to the GPU (regression_recall {})\n",
                     outcome.regressions, outcome.regressions - outcome.trusted_regressions,
                     optional_number(outcome.regression_recall));
  out << fmt::format("  risk among trusted  {} ({} of {}), 95% upper bound {}\n", optional_number(outcome.risk),
                     outcome.trusted_regressions, outcome.trusted, optional_number(outcome.risk_upper_95));
}

}  // namespace

Result<LedgerCalibration> calibrate(const LedgerReading& reading, std::string ledger, const TrustThresholds& current,
                                    double tolerance, double target_risk) {
  if (reading.entries.empty())
    return fail(ExitCode::could_not_run,
                fmt::format("the ledger {} has no measured kernel with a speedup yet ({} failed measurements)", ledger,
                            reading.without_speedup));
  std::vector<forecast::LabelledForecast> labelled;
  for (const auto& entry : reading.entries) labelled.push_back({entry.forecast, *entry.speedup});
  auto metrics = forecast::compute_metrics(labelled);
  if (!metrics) return std::unexpected(metrics.error());
  return LedgerCalibration{std::move(ledger),
                           reading.entries.size(),
                           reading.without_speedup,
                           tolerance,
                           *metrics,
                           current,
                           evaluate_policy(reading.entries, current, tolerance),
                           target_risk,
                           fit_thresholds(reading.entries, target_risk, tolerance)};
}

void write_calibration_json(std::ostream& out, const LedgerCalibration& c) {
  const auto& m = c.metrics;
  out << fmt::format(
      "{{\n  \"ledger\": {},\n  \"measured\": {},\n  \"failed_measurements\": {},\n  \"tolerance\": {:.6g},\n"
      "  \"metrics\": {{\"n\": {}, \"accuracy\": {:.6g}, \"within_one\": {:.6g}, \"ece\": {:.6g}, \"brier\": {:.6g}, "
      "\"crps\": {:.6g}, \"nll\": {:.6g}, \"aurc\": {:.6g}}},\n  \"current_policy\": {},\n"
      "  \"target_risk\": {:.6g},\n  \"fitted_policy\": {}\n}}\n",
      json_string(c.ledger), c.measured, c.failed_measurements, c.tolerance, m.n, m.accuracy, m.within_one, m.ece,
      m.brier, m.crps, m.nll, m.aurc, json_outcome(c.current, c.current_outcome), c.target_risk,
      c.fitted ? json_outcome(c.fitted->thresholds, c.fitted->outcome) : "null");
}

void write_calibration_text(std::ostream& out, const LedgerCalibration& c) {
  const auto& m = c.metrics;
  out << fmt::format("kforecast calibration: {}: {} measured kernels", c.ledger, c.measured);
  if (c.failed_measurements > 0) out << fmt::format(" ({} failed measurements not counted)", c.failed_measurements);
  out << "\n\nforecast quality\n";
  out << fmt::format(
      "  n            {}\n  accuracy     {:.3f}   predicted bin right\n"
      "  within_one   {:.3f}   predicted bin at most one away\n"
      "  ece          {:.3f}   calibration error of the confidence (lower is better)\n"
      "  brier        {:.3f}   half-Brier score (lower is better)\n"
      "  crps         {:.3f}   ranked probability score, in bins (lower is better)\n"
      "  nll          {:.3f}   negative log-likelihood of the measured bin\n"
      "  aurc         {:.3f}   area under risk-coverage (lower: confidence ranks errors last)\n",
      m.n, m.accuracy, m.within_one, m.ece, m.brier, m.crps, m.nll, m.aurc);
  out << fmt::format("\nthe configured policy (max_p_regression {:.4f}, min_confidence {:.4f}, tolerance {:.1f}%)\n",
                     c.current.max_p_regression, c.current.min_confidence, c.tolerance * 100);
  print_outcome(out, c.current_outcome);
  out << fmt::format("\nto hold a risk of at most {} among trusted forecasts\n", c.target_risk);
  if (!c.fitted) {
    out << "  no thresholds trust any kernel at that risk: keep measuring every changed kernel\n";
    return;
  }
  out << fmt::format("  max_p_regression = {:.4f}\n  min_confidence = {:.4f}\n", c.fitted->thresholds.max_p_regression,
                     c.fitted->thresholds.min_confidence);
  print_outcome(out, c.fitted->outcome);
  if (c.fitted->outcome.risk_upper_95 && *c.fitted->outcome.risk_upper_95 > c.target_risk)
    out << fmt::format(
        "  the 95% upper bound exceeds the target: {} trusted kernels are too few to be sure of it; keep "
        "collecting measurements before relying on these thresholds\n",
        c.fitted->outcome.trusted);
}

}  // namespace kforecast::policy
