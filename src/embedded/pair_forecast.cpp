// SPDX-License-Identifier: Apache-2.0
#include "embedded/pair_forecast.hpp"

#include "embedded/rationale.hpp"

namespace kforecast::embedded {

EmbeddedForecast forecast_pair(const OrdinalModel& model, FeatureCache& features, const KernelText& reference,
                               const KernelText& candidate) {
  EmbeddedForecast result;
  features.prepare({&reference, &candidate});  // both new texts compiled at once
  result.reference = features.features(reference);
  result.candidate = features.features(candidate);
  result.distribution = predict(model, feature_delta(result.reference, result.candidate));
  result.rationale = rationale(model, result.reference, result.candidate);
  return result;
}

}  // namespace kforecast::embedded
