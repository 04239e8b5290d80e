// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast eval`'s output: the table (text) or the same figures as JSON, and the predictions
// file (one JSON line per row: its distribution, the policy's decision and the true bin, enough
// to recompute every metric without kforecast).

#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "eval/rows.hpp"
#include "eval/scoring.hpp"

namespace kforecast::eval {

struct EvalRun {
  std::string dataset;     // the path as given
  std::string forecaster;  // "embedded" | "llm"
  std::string model;       // what forecast the rows, in words
  CrossValidation cv = CrossValidation::none;
  PolicySettingsForEval policy;
  std::size_t rows = 0;
  std::vector<std::string> notes;  // run-level: features missing, forecasts failed, ...
};

void write_eval_text(std::ostream& out, const EvalRun& run, std::span<const GroupScores> groups);
void write_eval_json(std::ostream& out, const EvalRun& run, std::span<const GroupScores> groups);

// "trusted_forecast" (the policy would pass it unmeasured) or "measure" (sent to the GPU).
std::string_view eval_decision(const EvalRow& row, const PolicySettingsForEval& policy);

void write_predictions(std::ostream& out, std::span<const EvalRow> rows, const PolicySettingsForEval& policy);

}  // namespace kforecast::eval
