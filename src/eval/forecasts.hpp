// SPDX-License-Identifier: Apache-2.0
#pragma once

// The forecasts of `kforecast eval`'s rows (eval/rows.hpp), from either forecaster: the embedded
// model, in-sample or leave-one-family-out, or any forecasters::Forecaster (the configured LLM endpoint),
// the seam `pr` forecasts through.

#include <cstddef>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "base/progress.hpp"
#include "config/config.hpp"
#include "cuda/compiler.hpp"
#include "embedded/labelled_pairs.hpp"
#include "embedded/pair_features.hpp"
#include "eval/rows.hpp"
#include "forecasters/forecaster.hpp"
#include "llm/prompt_set.hpp"

namespace kforecast::eval {

struct EmbeddedEvalSummary {
  std::string model;  // what forecast the rows, in words
  std::size_t with_compiler_facts = 0, kernel_not_found = 0;
};

// The embedded model over every row. It reads the features itself rather than going through
// forecasters::EmbeddedForecaster: under CrossValidation::family, fold f's model is trained
// (train_model: weights, then temperature out of fold among the training families) on the
// features of the other families' rows only, so a test family's rows are never seen by its
// model, and the seam forecasts with the compiled-in model only.
// Errors: fewer than two families for CrossValidation::family, a fold with too little to train on.
Result<EmbeddedEvalSummary> forecast_embedded(std::span<const embedded::LabelledPair> pairs, std::vector<EvalRow>& rows,
                                              const embedded::FeatureContext& features, CrossValidation cv,
                                              Progress* progress);

// What a prompt's compiler facts are compiled with.
struct PromptCompiler {
  const cuda::Compiler* compiler = nullptr;  // nullptr: the prompts go without compiler facts
  std::string arch;
  std::string cuda_include;  // CUDA's headers for those compiles, or ""
};

// The prompts an eval's LLM forecaster reads: built in, or forecast.prompts read from the work
// tree (relative to the config file's directory, the repository root). eval reads no revision,
// so there is no base to pin.
Result<llm::PromptSet> work_tree_prompts(const config::Config& config);

// `forecaster` over every row, each pair one ForecastRequest (prompt extras: launch text and
// compiler facts, built only if a prompt asks). A row the forecaster gives no forecast for is
// scored as the uniform distribution, and its notes say why. Returns what forecast the rows, in
// words (the forecaster's last run note). Errors only for a problem found before any forecast.
Result<std::string> forecast_with(const forecasters::Forecaster& forecaster, std::span<const embedded::LabelledPair> pairs,
                                  std::vector<EvalRow>& rows, const PromptCompiler& prompt_compiler);

}  // namespace kforecast::eval
