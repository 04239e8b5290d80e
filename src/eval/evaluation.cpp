// SPDX-License-Identifier: Apache-2.0
#include "eval/evaluation.hpp"

#include <fstream>

#include <fmt/format.h>

#include "eval/plots.hpp"

namespace kforecast::eval {
namespace {

std::string plural(std::size_t n, std::string_view word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

// The rows of `pairs` with their training priors, forecasts still to fill in.
Evaluation start(std::span<const embedded::LabelledPair> pairs, EvalRun run) {
  Evaluation evaluation{std::move(run), eval_rows(pairs), {}};
  set_training_priors(evaluation.rows, evaluation.run.cv);
  return evaluation;
}

}  // namespace

Result<Evaluation> evaluate_embedded(std::span<const embedded::LabelledPair> pairs, EvalRun run,
                                     const embedded::FeatureContext& features, std::string_view hardware,
                                     Progress* progress) {
  Evaluation evaluation = start(pairs, std::move(run));
  auto summary = forecast_embedded(pairs, evaluation.rows, features, evaluation.run.cv, progress);
  if (!summary) return std::unexpected(summary.error());
  evaluation.run.model = summary->model;
  evaluation.run.notes.push_back(fmt::format("features for {} ({}): NVRTC facts for {} of {}", hardware,
                                             features.arch, summary->with_compiler_facts,
                                             plural(evaluation.rows.size(), "pair")));
  if (summary->kernel_not_found > 0)
    evaluation.run.notes.push_back(
        fmt::format("{} with a kernel not found in its source: forecast from what could be read (wider), and counted",
                    plural(summary->kernel_not_found, "pair")));
  evaluation.groups = score_by_family(evaluation.rows, evaluation.run.policy);
  return evaluation;
}

Result<Evaluation> evaluate_with(const forecasters::Forecaster& forecaster, std::span<const embedded::LabelledPair> pairs,
                                 EvalRun run, const PromptCompiler& prompt_compiler) {
  Evaluation evaluation = start(pairs, std::move(run));
  auto model = forecast_with(forecaster, pairs, evaluation.rows, prompt_compiler);
  if (!model) return std::unexpected(model.error());
  evaluation.run.model = *model;
  std::size_t failed = 0;
  for (const auto& row : evaluation.rows)
    failed += !row.notes.empty() && row.notes.back().ends_with("scored as the uniform distribution");
  if (failed > 0)
    evaluation.run.notes.push_back(fmt::format(
        "{} without an LLM forecast: scored as the uniform distribution, and counted", plural(failed, "pair")));
  evaluation.groups = score_by_family(evaluation.rows, evaluation.run.policy);
  return evaluation;
}

Result<void> save_predictions(const std::filesystem::path& path, Evaluation& evaluation) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  write_predictions(out, evaluation.rows, evaluation.run.policy);
  if (!out.flush()) return fail(ExitCode::could_not_run, fmt::format("--predictions: cannot write '{}'", path.string()));
  evaluation.run.notes.push_back(
      fmt::format("predictions ({}) written to {}", plural(evaluation.rows.size(), "line"), path.string()));
  return {};
}

Result<void> save_plots(const std::filesystem::path& directory, Evaluation& evaluation) {
  const EvalRun& run = evaluation.run;
  auto written = write_eval_plots(directory, evaluation.rows, run.policy,
                                  fmt::format("{} on {} ({})", run.forecaster, run.dataset,
                                              plural(evaluation.rows.size(), "pair")));
  if (!written) return std::unexpected(written.error());
  for (const auto& plot : *written) evaluation.run.notes.push_back("plot written to " + plot.string());
  return {};
}

}  // namespace kforecast::eval
