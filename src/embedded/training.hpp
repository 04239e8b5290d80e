// SPDX-License-Identifier: Apache-2.0
#pragma once

// Fitting the ordinal model to labelled pairs (maximum likelihood with an L2 penalty on the
// weights, full-batch Adam: deterministic), and its temperature out of fold: every pair is
// forecast by a model that did not see it (leave-one-family-out where the pairs name two or more
// families, k folds otherwise), and T is the one that makes those forecasts most likely. The
// final weights are then fitted on all pairs.

#include <cstddef>
#include <span>
#include <string>

#include "base/error.hpp"
#include "embedded/ordinal_model.hpp"
#include "forecast/speedup_bin.hpp"

namespace kforecast::embedded {

struct TrainingExample {
  FeatureDelta delta;
  forecast::SpeedupBin bin = forecast::SpeedupBin::minor_slowdown;
  std::string family;  // groups the folds; empty: no family
};

struct TrainingOptions {
  // Penalty on the squared weights, per example: 0.05 (more features want more shrinkage than
  // 0.01), chosen on random-pair splits, not on families.
  double l2 = 0.05;
  int iterations = 3000;
  double learning_rate = 0.05;
  std::size_t folds = 5;            // when the examples name fewer than two families
  double missing_group_mix = 0.25;  // not fitted: copied into the model
};

struct TrainingReport {
  OrdinalModel model;
  std::size_t folds = 0;
  bool by_family = false;
  double out_of_fold_nll_uncalibrated = 0;  // mean negative log-likelihood at T = 1
  double out_of_fold_nll = 0;               // at the fitted T
  double out_of_fold_accuracy = 0;
  double prior_nll = 0;  // of the training prior (class frequencies), for comparison
};

// Errors: fewer than two examples, or too few to make two folds.
Result<TrainingReport> train_model(std::span<const TrainingExample> examples, const TrainingOptions& options = {});

// The weights and thresholds alone, at T = 1 (what each fold fits). Exposed for tests.
OrdinalModel fit_ordinal(std::span<const TrainingExample> examples, const TrainingOptions& options);

// Mean negative log-likelihood of the examples under the model (its temperature included).
double mean_nll(const OrdinalModel& model, std::span<const TrainingExample> examples);

}  // namespace kforecast::embedded
