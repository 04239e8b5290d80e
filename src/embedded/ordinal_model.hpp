// SPDX-License-Identifier: Apache-2.0
#pragma once

// The embedded forecaster's model: ordinal logistic regression from a pair's feature differences
// to the eight ordered speedup bins. One score z = sum_i w_i * delta_i moves the whole
// distribution; seven increasing thresholds cut the logistic curve into bins:
//   P(bin <= k) = sigmoid((theta_k - z) / T),  k = 1..7,
// and T (temperature, fitted out of fold) widens or sharpens it. Every feature's pull on the
// forecast is w_i * delta_i, which is what the rationale names. Where a feature group is missing
// for a pair (no NVRTC facts, no launch, kernel not found), the distribution is mixed with the
// uniform one, by `missing_group_mix` per group: knowing less gives a flatter distribution and a
// lower confidence. (Not a larger T: a large T moves an ordinal model's mass to the two open-ended
// bins, which would read as a confident extreme forecast.)

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "embedded/kernel_features.hpp"
#include "forecast/bin_distribution.hpp"

namespace kforecast::embedded {

enum class ModelStatus {
  prior,    // not fitted to measurements: weights 0, thresholds give a wide prior
  trained,  // fitted by `kforecast train` on labelled pairs
};

struct OrdinalModel {
  ModelStatus status = ModelStatus::prior;
  std::size_t training_pairs = 0;
  std::array<double, forecast::bin_count - 1> thresholds{};  // strictly increasing
  std::array<double, feature_count> weights{};
  double temperature = 1.0;
  double missing_group_mix = 0.25;  // in [0, 1): weight of the uniform distribution per missing group
  std::string note;                 // one line saying what the parameters are, printed by the rationale
};

// The score z of a pair: positive means faster (towards the upper bins).
double score(const OrdinalModel& model, const FeatureDelta& delta);

// The distribution for a pair, temperature and missing groups applied.
forecast::BinDistribution predict(const OrdinalModel& model, const FeatureDelta& delta);

// The distribution for a score and an effective temperature (the model's thresholds).
std::array<double, forecast::bin_count> bin_probabilities(const std::array<double, forecast::bin_count - 1>& thresholds,
                                                          double z, double temperature);

// The parameter file: line-oriented text, '#' comments. Errors name the origin and line.
//   format 1
//   status prior|trained
//   training_pairs N
//   temperature T
//   missing_group_mix M      (0 <= M < 1)
//   note TEXT
//   threshold K VALUE        (K = 1..7, all seven, increasing)
//   weight FEATURE VALUE     (features of the catalogue; unnamed ones are 0)
Result<OrdinalModel> parse_model(std::string_view text, std::string_view origin);
std::string render_model(const OrdinalModel& model);

// The parameters compiled into the binary (src/embedded/default_model.txt).
const OrdinalModel& default_model();

}  // namespace kforecast::embedded
