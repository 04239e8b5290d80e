// SPDX-License-Identifier: Apache-2.0
#pragma once

// The rows `kforecast eval` scores: one per labelled pair, in the dataset's order, each with the
// forecaster's distribution and the training prior's (the baseline). No row is ever dropped: a
// kernel that cannot be found or compiled is forecast from what could be read (the wider
// distribution the model gives to missing feature groups), a failed LLM forecast is the uniform
// distribution, and each row's notes say which (eval/forecasts.hpp fills them in).

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "embedded/labelled_pairs.hpp"
#include "forecast/bin_distribution.hpp"
#include "policy/ledger.hpp"

namespace kforecast::eval {

struct EvalRow {
  std::string id;
  std::string family;  // as the dataset gives it; may be empty
  std::size_t line = 0;
  double speedup = 1.0;
  forecast::SpeedupBin true_bin = forecast::SpeedupBin::minor_slowdown;
  std::string reference_key;  // the reference kernel (family, name, source), for top-k recovery
  forecast::BinDistribution forecast = forecast::BinDistribution::uniform();
  forecast::BinDistribution prior = forecast::BinDistribution::uniform();  // the training-prior baseline
  std::vector<std::string> notes;
};

// The rows of a parsed dataset, with uniform forecasts and priors still to fill in.
std::vector<EvalRow> eval_rows(std::span<const embedded::LabelledPair> pairs);

// The rows of a ledger's measured kernels (`kforecast calibration --plots`): each entry with a
// speedup, its forecast as recorded, the kernel's file as its family. Failed measurements have no
// speedup to score against and are left out.
std::vector<EvalRow> ledger_rows(const policy::LedgerReading& ledger);

// The family as tables print it: "(no family)" for an empty one.
std::string family_label(const std::string& family);

enum class CrossValidation {
  none,    // the compiled-in model forecasts every row; the prior is the whole dataset's
  family,  // each family forecast by a model trained on the other families; the prior is theirs
};

// Bin frequencies of `bins`, add-one smoothed (as the training code's prior), so that a bin
// no training pair fell in still gets some probability. No bins: uniform.
forecast::BinDistribution training_prior(std::span<const forecast::SpeedupBin> bins);

// Sets every row's prior: under CrossValidation::family from the other families' rows only.
void set_training_priors(std::vector<EvalRow>& rows, CrossValidation cv);

// The sorted distinct families of the rows (empty ones included as "").
std::vector<std::string> families_of(std::span<const EvalRow> rows);

}  // namespace kforecast::eval
