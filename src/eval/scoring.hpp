// SPDX-License-Identifier: Apache-2.0
#pragma once

// What `kforecast eval` prints: per family and overall, the forecast core's metrics of the
// forecaster and of two baselines scored on the same rows — the training prior, and "always bin
// 5" (all mass on minor speedup, the forecast of someone who assumes every change helps a little)
// — and what the configured policy would have done with each: the share of pairs sent to the GPU
// and the share of regressions caught (sent to the GPU rather than trusted).

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "eval/rows.hpp"
#include "forecast/metrics.hpp"
#include "policy/trust.hpp"

namespace kforecast::eval {

enum class Scored { forecaster, training_prior, always_bin_5 };

// The distribution a row has under each of the three.
forecast::BinDistribution scored_distribution(const EvalRow& row, Scored scored);

struct PolicySettingsForEval {
  policy::TrustThresholds thresholds;
  double tolerance = 0.02;  // bench.tolerance: a regression is a speedup below 1 / (1 + tolerance)
};

struct Scores {
  forecast::ForecastMetrics metrics;
  // Mean over references with two or more candidates of: the best measured speedup among the
  // candidate ranked first by expected speedup, over the best of all its candidates. None when
  // no reference has two candidates.
  std::optional<double> topk_recovery;
  policy::PolicyOutcome policy;
};

struct GroupScores {
  std::string name;  // a family's label, or "overall"
  Scores forecaster, training_prior, always_bin_5;
};

// Scores of a non-empty set of rows.
GroupScores score_group(std::string name, std::span<const EvalRow* const> rows, const PolicySettingsForEval& policy);

// One group per family (sorted by name), then "overall" last. Rows must not be empty.
std::vector<GroupScores> score_by_family(std::span<const EvalRow> rows, const PolicySettingsForEval& policy);

}  // namespace kforecast::eval
