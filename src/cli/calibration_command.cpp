// SPDX-License-Identifier: Apache-2.0
// `kforecast calibration`: how good the forecasts were on this repository's measured kernels (the
// ledger), what the configured policy did with them, and which thresholds would have held a
// target error rate among trusted forecasts.

#include <charconv>
#include <cmath>
#include <ostream>

#include <fmt/format.h>

#include "base/json_string.hpp"
#include "base/text_file.hpp"
#include "cli/handlers.hpp"
#include "forecast/metrics.hpp"
#include "policy/trust.hpp"

namespace kforecast::cli {
namespace {

struct Options {
  std::filesystem::path ledger;
  double target_risk = 0.02;
  bool json = false;
};

// The ledger's path: --ledger, else policy.ledger, relative to the config file's directory (the
// repository root), or to --repo or the current directory when there is no config file.
std::filesystem::path ledger_path(const Invocation& invocation, const config::Config& config) {
  if (invocation.has("--ledger")) return invocation.value("--ledger");
  std::filesystem::path configured = config.string_value("policy.ledger");
  if (configured.is_absolute()) return configured;
  if (config.file()) return config.file()->parent_path() / configured;
  return (invocation.has("--repo") ? std::filesystem::path(invocation.value("--repo")) : std::filesystem::path()) /
         configured;
}

Result<Options> read_options(const Invocation& invocation, const config::Config& config) {
  Options options{ledger_path(invocation, config)};
  if (invocation.has("--target-risk")) {
    const std::string text = invocation.value("--target-risk");
    double rate = -1;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), rate);
    if (error != std::errc() || end != text.data() + text.size() || !(rate >= 0 && rate < 1))
      return usage_error(fmt::format("--target-risk {}: expected a rate in [0, 1), e.g. 0.02", text));
    options.target_risk = rate;
  }
  const std::string format = invocation.has("--format") ? invocation.value("--format") : "text";
  if (format != "text" && format != "json")
    return usage_error(fmt::format("--format {}: expected text or json", format));
  options.json = format == "json";
  return options;
}

std::string optional_number(const std::optional<double>& value) {
  return value ? fmt::format("{:.4f}", *value) : "n/a";
}
std::string json_number(const std::optional<double>& value) { return value ? fmt::format("{:.6g}", *value) : "null"; }

std::string json_outcome(const policy::TrustThresholds& thresholds, const policy::PolicyOutcome& outcome) {
  return fmt::format(
      "{{\"max_p_regression\": {:.6g}, \"min_confidence\": {:.6g}, \"trusted\": {}, \"regressions\": {}, "
      "\"trusted_regressions\": {}, \"gpu_fraction\": {:.6g}, \"regression_recall\": {}, \"risk\": {}, "
      "\"risk_upper_95\": {}}}",
      thresholds.max_p_regression, thresholds.min_confidence, outcome.trusted, outcome.regressions,
      outcome.trusted_regressions, outcome.gpu_fraction, json_number(outcome.regression_recall),
      json_number(outcome.risk), json_number(outcome.risk_upper_95));
}

void print_outcome(std::ostream& out, const policy::PolicyOutcome& outcome) {
  out << fmt::format("  trusted             {} of {} (gpu_fraction {:.3f})\n", outcome.trusted, outcome.kernels,
                     outcome.gpu_fraction);
  out << fmt::format("  regressions         {}, {} of them sent to the GPU (regression_recall {})\n",
                     outcome.regressions, outcome.regressions - outcome.trusted_regressions,
                     optional_number(outcome.regression_recall));
  out << fmt::format("  risk among trusted  {} ({} of {}), 95% upper bound {}\n", optional_number(outcome.risk),
                     outcome.trusted_regressions, outcome.trusted, optional_number(outcome.risk_upper_95));
}

}  // namespace

Result<ExitCode> calibration_command(const Invocation& invocation, Context& context) {
  if (!invocation.positional.empty()) return usage_error("'kforecast calibration' takes no arguments");
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  auto options = read_options(invocation, *config);
  if (!options) return std::unexpected(options.error());

  std::error_code missing;
  if (!std::filesystem::exists(options->ledger, missing))
    return fail(ExitCode::could_not_run,
                fmt::format("no ledger at {}: kforecast pr appends a line there for every kernel it measures "
                            "(policy.ledger); in CI, keep that file as an artifact or cache and restore it before "
                            "this command, or pass --ledger FILE",
                            options->ledger.string()));
  auto text = read_text_file(options->ledger, "ledger");
  if (!text) return std::unexpected(text.error());
  auto reading = policy::parse_ledger(*text, options->ledger.string());
  if (!reading) return std::unexpected(reading.error());
  for (const auto& note : reading->notes) context.err << fmt::format("kforecast: note: {}\n", note);
  if (reading->entries.empty())
    return fail(ExitCode::could_not_run,
                fmt::format("the ledger {} has no measured kernel with a speedup yet ({} failed measurements)",
                            options->ledger.string(), reading->without_speedup));

  std::vector<forecast::LabelledForecast> labelled;
  for (const auto& entry : reading->entries) labelled.push_back({entry.forecast, *entry.speedup});
  auto metrics = forecast::compute_metrics(labelled);
  if (!metrics) return std::unexpected(metrics.error());

  const double tolerance = config->number_value("bench.tolerance");
  const policy::TrustThresholds current{config->number_value("policy.max_p_regression"),
                                        config->number_value("policy.min_confidence")};
  const auto outcome = policy::evaluate_policy(reading->entries, current, tolerance);
  const auto fitted = policy::fit_thresholds(reading->entries, options->target_risk, tolerance);

  auto& out = context.out;
  if (options->json) {
    out << fmt::format(
        "{{\n  \"ledger\": {},\n  \"measured\": {},\n  \"failed_measurements\": {},\n  \"tolerance\": {:.6g},\n"
        "  \"metrics\": {{\"n\": {}, \"accuracy\": {:.6g}, \"within_one\": {:.6g}, \"ece\": {:.6g}, \"brier\": {:.6g}, "
        "\"crps\": {:.6g}, \"nll\": {:.6g}, \"aurc\": {:.6g}}},\n  \"current_policy\": {},\n"
        "  \"target_risk\": {:.6g},\n  \"fitted_policy\": {}\n}}\n",
        json_string(options->ledger.string()), reading->entries.size(), reading->without_speedup, tolerance, metrics->n,
        metrics->accuracy, metrics->within_one, metrics->ece, metrics->brier, metrics->crps, metrics->nll,
        metrics->aurc, json_outcome(current, outcome), options->target_risk,
        fitted ? json_outcome(fitted->thresholds, fitted->outcome) : "null");
    return ExitCode::pass;
  }

  out << fmt::format("kforecast calibration: {}: {} measured kernels", options->ledger.string(),
                     reading->entries.size());
  if (reading->without_speedup > 0)
    out << fmt::format(" ({} failed measurements not counted)", reading->without_speedup);
  out << "\n\nforecast quality\n";
  out << fmt::format(
      "  n            {}\n  accuracy     {:.3f}   predicted bin right\n"
      "  within_one   {:.3f}   predicted bin at most one away\n"
      "  ece          {:.3f}   calibration error of the confidence (lower is better)\n"
      "  brier        {:.3f}   half-Brier score (lower is better)\n"
      "  crps         {:.3f}   ranked probability score, in bins (lower is better)\n"
      "  nll          {:.3f}   negative log-likelihood of the measured bin\n"
      "  aurc         {:.3f}   area under risk-coverage (lower: confidence ranks errors last)\n",
      metrics->n, metrics->accuracy, metrics->within_one, metrics->ece, metrics->brier, metrics->crps, metrics->nll,
      metrics->aurc);
  out << fmt::format("\nthe configured policy (max_p_regression {:.4f}, min_confidence {:.4f}, tolerance {:.1f}%)\n",
                     current.max_p_regression, current.min_confidence, tolerance * 100);
  print_outcome(out, outcome);
  out << fmt::format("\nto hold a risk of at most {} among trusted forecasts\n", options->target_risk);
  if (!fitted) {
    out << "  no thresholds trust any kernel at that risk: keep measuring every changed kernel\n";
    return ExitCode::pass;
  }
  out << fmt::format("  max_p_regression = {:.4f}\n  min_confidence = {:.4f}\n", fitted->thresholds.max_p_regression,
                     fitted->thresholds.min_confidence);
  print_outcome(out, fitted->outcome);
  if (fitted->outcome.risk_upper_95 && *fitted->outcome.risk_upper_95 > options->target_risk)
    out << fmt::format(
        "  the 95% upper bound exceeds the target: {} trusted kernels are too few to be sure of it; keep "
        "collecting measurements before relying on these thresholds\n",
        fitted->outcome.trusted);
  return ExitCode::pass;
}

}  // namespace kforecast::cli
