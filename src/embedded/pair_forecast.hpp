// SPDX-License-Identifier: Apache-2.0
#pragma once

// The embedded forecaster's one entry point: a reference and a candidate kernel in, a bin
// distribution and its rationale out. What `pr` and `eval` call; offline and deterministic.
// A kernel that cannot be found or compiled is still forecast, from what could be read, with
// the wider distribution the model gives to missing feature groups, and the rationale says so.

#include <string>

#include "embedded/ordinal_model.hpp"
#include "embedded/pair_features.hpp"
#include "forecast/bin_distribution.hpp"

namespace kforecast::embedded {

struct EmbeddedForecast {
  forecast::BinDistribution distribution = forecast::BinDistribution::uniform();
  std::string rationale;
  FeatureVector reference;
  FeatureVector candidate;
};

EmbeddedForecast forecast_pair(const OrdinalModel& model, FeatureCache& features, const KernelText& reference,
                               const KernelText& candidate);

}  // namespace kforecast::embedded
