// SPDX-License-Identifier: Apache-2.0
#pragma once

// The rationale of an embedded forecast: which features moved it, in words a kernel author
// reads ("128-bit global loads 0 -> 2; occupancy 50% -> 100%; spills (bytes) 0 -> 96"), and what
// was not known. With a trained model the features are those with the largest pull (weight x
// difference) and the direction they pull in; with the untrained prior, which moves nothing, the
// largest changes are listed as information and the rationale says so.

#include <cstddef>
#include <string>
#include <vector>

#include "embedded/kernel_features.hpp"
#include "embedded/ordinal_model.hpp"

namespace kforecast::embedded {

struct FeaturePull {
  Feature feature;
  double reference = 0;
  double candidate = 0;
  double delta = 0;
  double pull = 0;  // weight x delta: > 0 towards faster, < 0 towards slower
};

// The pair's changed features, largest |pull| first (or largest |delta| where every pull is 0),
// at most `limit`.
std::vector<FeaturePull> feature_pulls(const OrdinalModel& model, const FeatureVector& reference,
                                       const FeatureVector& candidate, std::size_t limit = 4);

std::string rationale(const OrdinalModel& model, const FeatureVector& reference, const FeatureVector& candidate);

}  // namespace kforecast::embedded
