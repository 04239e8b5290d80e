// SPDX-License-Identifier: Apache-2.0
#include "eval/output.hpp"

#include <ostream>

#include <fmt/format.h>

#include "base/json_string.hpp"
#include "kforecast_version.hpp"

namespace kforecast::eval {
namespace {

// One row of the metric table: the name, how to read it, and how to get it from Scores.
struct MetricRow {
  std::string_view name;
  std::string_view meaning;
  std::optional<double> (*value)(const Scores&);
};

const std::array metric_rows{
    MetricRow{"accuracy", "predicted bin right (higher is better)",
              [](const Scores& s) -> std::optional<double> { return s.metrics.accuracy; }},
    MetricRow{"within_one", "predicted bin at most one away (higher is better)",
              [](const Scores& s) -> std::optional<double> { return s.metrics.within_one; }},
    MetricRow{"ece", "calibration error of the confidence, 10 buckets (lower is better)",
              [](const Scores& s) -> std::optional<double> { return s.metrics.ece; }},
    MetricRow{"brier", "half-Brier score, in [0, 1] (lower is better)",
              [](const Scores& s) -> std::optional<double> { return s.metrics.brier; }},
    MetricRow{"crps", "ranked probability score, in bins, [0, 7] (lower is better)",
              [](const Scores& s) -> std::optional<double> { return s.metrics.crps; }},
    MetricRow{"nll", "negative log-likelihood of the measured bin (lower is better)",
              [](const Scores& s) -> std::optional<double> { return s.metrics.nll; }},
    MetricRow{"aurc", "area under risk-coverage (lower: confidence ranks errors last)",
              [](const Scores& s) -> std::optional<double> { return s.metrics.aurc; }},
    MetricRow{"topk_recovery", "best speedup found measuring only the top-ranked candidate",
              [](const Scores& s) { return s.topk_recovery; }},
    MetricRow{"gpu_fraction", "pairs the policy sends to the GPU (lower is cheaper)",
              [](const Scores& s) -> std::optional<double> { return s.policy.gpu_fraction; }},
    MetricRow{"regression_recall", "regressions sent to the GPU, not trusted (higher is safer)",
              [](const Scores& s) { return s.policy.regression_recall; }},
};

std::string cell(const std::optional<double>& value) { return value ? fmt::format("{:.3f}", *value) : "n/a"; }
std::string json_number(const std::optional<double>& value) { return value ? fmt::format("{:.6g}", *value) : "null"; }

std::string change_text(double value, double baseline) {
  if (baseline <= 0) return "n/a";
  return fmt::format("{:+.0f}%", (value - baseline) / baseline * 100);
}

std::string scores_json(const Scores& s) {
  std::string out = "{";
  for (std::size_t i = 0; i < metric_rows.size(); ++i)
    out += fmt::format("{}\"{}\": {}", i == 0 ? "" : ", ", metric_rows[i].name, json_number(metric_rows[i].value(s)));
  out += fmt::format(", \"trusted\": {}, \"regressions\": {}, \"trusted_regressions\": {}}}", s.policy.trusted,
                     s.policy.regressions, s.policy.trusted_regressions);
  return out;
}

std::string group_json(const GroupScores& g) {
  return fmt::format("{{\"name\": {}, \"n\": {}, \"forecaster\": {}, \"training_prior\": {}, \"always_bin_5\": {}}}",
                     json_string(g.name), g.forecaster.metrics.n, scores_json(g.forecaster),
                     scores_json(g.training_prior), scores_json(g.always_bin_5));
}

std::string probabilities_json(const forecast::BinDistribution& d) {
  // 17 significant digits: the recomputed metrics match to the last bit.
  return fmt::format("[{:.17g}]", fmt::join(d.probabilities(), ", "));
}

std::string_view cv_text(CrossValidation cv) { return cv == CrossValidation::family ? "family" : "none"; }

}  // namespace

void write_eval_text(std::ostream& out, const EvalRun& run, std::span<const GroupScores> groups) {
  const GroupScores& overall = groups.back();
  out << fmt::format("kforecast eval: {}: {} pairs in {} families; forecaster {}: {}\n", run.dataset, run.rows,
                     groups.size() - 1, run.forecaster, run.model);
  out << fmt::format(
      "policy: trusted when P(regression) < {:.4f} and confidence >= {:.4f}; a regression is a speedup below "
      "{:.4f} (bench.tolerance {:.1f}%)\n",
      run.policy.thresholds.max_p_regression, run.policy.thresholds.min_confidence, 1 / (1 + run.policy.tolerance),
      run.policy.tolerance * 100);
  out << fmt::format("training prior: bin frequencies (add-one) of {}\n\n",
                     run.cv == CrossValidation::family ? "the other families' pairs (the training folds)"
                                                       : "every pair of the dataset (in-sample: flatters the prior)");
  out << fmt::format("overall ({} pairs)    forecaster  training prior  always bin 5\n", overall.forecaster.metrics.n);
  for (const MetricRow& row : metric_rows)
    out << fmt::format("  {:<18} {:>10}  {:>14}  {:>12}   {}\n", row.name, cell(row.value(overall.forecaster)),
                       cell(row.value(overall.training_prior)), cell(row.value(overall.always_bin_5)), row.meaning);
  out << fmt::format("  against the training prior: brier {}, crps {}, nll {}\n",
                     change_text(overall.forecaster.metrics.brier, overall.training_prior.metrics.brier),
                     change_text(overall.forecaster.metrics.crps, overall.training_prior.metrics.crps),
                     change_text(overall.forecaster.metrics.nll, overall.training_prior.metrics.nll));
  out << fmt::format("  regressions: {}, caught {} (sent to the GPU), trusted {} (would pass unmeasured)\n",
                     overall.forecaster.policy.regressions,
                     overall.forecaster.policy.regressions - overall.forecaster.policy.trusted_regressions,
                     overall.forecaster.policy.trusted_regressions);

  out << "\nper family: the forecaster, then the baselines' brier and crps\n";
  out << fmt::format("  {:<16} {:>5} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}  {:>11} {:>11}\n", "family",
                     "pairs", "acc", "w1", "ece", "brier", "crps", "nll", "gpu", "recall", "prior b/c", "bin5 b/c");
  for (const GroupScores& g : groups.first(groups.size() - 1)) {
    const auto& f = g.forecaster;
    out << fmt::format(
        "  {:<16} {:>5} {:>6.3f} {:>6.3f} {:>6.3f} {:>6.3f} {:>6.3f} {:>6.3f} {:>6.3f} {:>6}  {:>5.3f}/{:<5.3f} "
        "{:>5.3f}/{:<5.3f}\n",
        g.name, f.metrics.n, f.metrics.accuracy, f.metrics.within_one, f.metrics.ece, f.metrics.brier, f.metrics.crps,
        f.metrics.nll, f.policy.gpu_fraction, cell(f.policy.regression_recall), g.training_prior.metrics.brier,
        g.training_prior.metrics.crps, g.always_bin_5.metrics.brier, g.always_bin_5.metrics.crps);
  }
  if (!run.notes.empty()) {
    out << "\nnotes:\n";
    for (const auto& note : run.notes) out << "  " << note << '\n';
  }
}

void write_eval_json(std::ostream& out, const EvalRun& run, std::span<const GroupScores> groups) {
  std::vector<std::string> families;
  for (const GroupScores& g : groups.first(groups.size() - 1)) families.push_back(group_json(g));
  std::vector<std::string> notes;
  for (const auto& note : run.notes) notes.push_back(json_string(note));
  out << fmt::format(
      "{{\n  \"kforecast\": {},\n  \"dataset\": {},\n  \"forecaster\": {},\n  \"model\": {},\n  \"cv\": \"{}\",\n"
      "  \"n\": {},\n  \"policy\": {{\"max_p_regression\": {:.6g}, \"min_confidence\": {:.6g}, \"tolerance\": "
      "{:.6g}}},\n  \"overall\": {},\n  \"families\": [\n    {}\n  ],\n  \"notes\": [{}]\n}}\n",
      json_string(kforecast::version), json_string(run.dataset), json_string(run.forecaster), json_string(run.model),
      cv_text(run.cv), run.rows, run.policy.thresholds.max_p_regression, run.policy.thresholds.min_confidence,
      run.policy.tolerance, group_json(groups.back()), fmt::join(families, ",\n    "), fmt::join(notes, ", "));
}

std::string_view eval_decision(const EvalRow& row, const PolicySettingsForEval& policy) {
  return policy::is_trusted(row.forecast, policy.thresholds, policy.tolerance) ? "trusted_forecast" : "measure";
}

void write_predictions(std::ostream& out, std::span<const EvalRow> rows, const PolicySettingsForEval& policy) {
  for (const EvalRow& row : rows) {
    std::vector<std::string> notes;
    for (const auto& note : row.notes) notes.push_back(json_string(note));
    out << fmt::format(
        "{{\"id\": {}, \"family\": {}, \"line\": {}, \"probabilities\": {}, \"predicted_bin\": {}, "
        "\"confidence\": {:.17g}, \"p_regression\": {:.17g}, \"decision\": \"{}\", \"true_bin\": {}, "
        "\"speedup\": {:.17g}, \"regression\": {}, \"prior\": {}, \"notes\": [{}]}}\n",
        json_string(row.id), json_string(row.family), row.line, probabilities_json(row.forecast),
        forecast::bin_number(row.forecast.predicted_bin()), row.forecast.max_probability(),
        row.forecast.p_regression(policy.tolerance), eval_decision(row, policy), forecast::bin_number(row.true_bin),
        row.speedup, policy::is_regression(row.speedup, policy.tolerance) ? "true" : "false",
        probabilities_json(row.prior), fmt::join(notes, ", "));
  }
}

}  // namespace kforecast::eval
