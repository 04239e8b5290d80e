// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast eval` from a parsed dataset to scored groups: the rows, their training priors, the
// forecasts, the run's notes and the scores per family and overall. cli parses the options and
// builds what the outside world gives (the compiler, the facts cache, the configured LLM
// forecaster); it writes what comes back with eval/output.hpp and the two savers below.

#include <filesystem>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "base/progress.hpp"
#include "embedded/labelled_pairs.hpp"
#include "embedded/pair_features.hpp"
#include "eval/forecasts.hpp"
#include "eval/output.hpp"
#include "eval/rows.hpp"
#include "eval/scoring.hpp"
#include "forecasters/forecaster.hpp"

namespace kforecast::eval {

struct Evaluation {
  EvalRun run;  // the run as given, with the model in words and the forecaster's notes added
  std::vector<EvalRow> rows;
  std::vector<GroupScores> groups;  // one per family (sorted), then "overall"
};

// The embedded model (in-sample or leave-one-family-out, as `run.cv` says), with `features` for
// the GPU named `hardware` (as the user gave it, for the notes). `progress`: where the
// folds' progress shows (base/progress.hpp), or nullptr. `pairs` must not be empty.
Result<Evaluation> evaluate_embedded(std::span<const embedded::LabelledPair> pairs, EvalRun run,
                                     const embedded::FeatureContext& features, std::string_view hardware,
                                     Progress* progress);

// `forecaster` (the configured LLM endpoint, built by cli) over every pair; a pair it gives no
// forecast for is scored as the uniform distribution, and counted in the notes. `pairs` must not
// be empty.
Result<Evaluation> evaluate_with(const forecasters::Forecaster& forecaster, std::span<const embedded::LabelledPair> pairs,
                                 EvalRun run, const PromptCompiler& prompt_compiler);

// Writes the predictions file (eval/output.hpp's write_predictions) to `path` and adds a note
// saying so.
Result<void> save_predictions(const std::filesystem::path& path, Evaluation& evaluation);

// Writes the two plots (eval/plots.hpp) into `directory` and adds a note for each.
Result<void> save_plots(const std::filesystem::path& directory, Evaluation& evaluation);

}  // namespace kforecast::eval
