// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast train`'s data and its summary: labelled pairs made into training examples (each
// pair's feature delta and measured bin) for train_model, with counts of what the features had,
// and the lines that tell the user what was fitted and how well it held out of fold.

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "embedded/labelled_pairs.hpp"
#include "embedded/pair_features.hpp"
#include "embedded/training.hpp"

namespace kforecast::embedded {

struct TrainingSet {
  std::vector<TrainingExample> examples;  // one per pair, in the dataset's order
  std::size_t families = 0;               // distinct non-empty families
  std::size_t with_compiler_facts = 0, with_launch = 0, without_source = 0;
};

// The examples of `pairs` (read from `dataset`, for the errors' place), their features read in
// `features` (one cache: a text two pairs share is read and compiled once).
// Errors: a pair whose speedup has no bin, as dataset:line.
Result<TrainingSet> training_set(std::span<const LabelledPair> pairs, const FeatureContext& features,
                                 std::string_view dataset);

// What the summary says about the run beyond the set and the report.
struct TrainingRunLabels {
  std::string dataset;  // the path as given
  std::string hardware, arch;
  std::optional<std::string> nvrtc_not_used;  // why no NVRTC facts were read; nullopt: NVRTC was used
};

// The summary lines: the data, the features, and the out-of-fold figures.
void write_training_summary(std::ostream& out, const TrainingRunLabels& labels, const TrainingSet& set,
                            const TrainingReport& report);

}  // namespace kforecast::embedded
