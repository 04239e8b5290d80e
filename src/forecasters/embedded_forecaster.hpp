// SPDX-License-Identifier: Apache-2.0
#pragma once

// The embedded forecaster behind the Forecaster seam (the default): each kernel is forecast
// offline by the compiled-in model from the features of both versions, with NVRTC facts where the
// context has a compiler. It never fails: what it cannot read widens the distribution, and the
// rationale says so.

#include "embedded/pair_features.hpp"
#include "forecasters/forecaster.hpp"

namespace kforecast::forecasters {

class EmbeddedForecaster final : public Forecaster {
 public:
  // `tolerance` (bench.tolerance) sets what P(regression) counts as a regression.
  EmbeddedForecaster(embedded::FeatureContext context, double tolerance)
      : m_context(std::move(context)), m_tolerance(tolerance) {}

  std::string_view name() const override { return "embedded"; }
  Result<ForecastRun> forecast(std::span<const ForecastRequest> requests) const override;

 private:
  embedded::FeatureContext m_context;
  double m_tolerance;
};

}  // namespace kforecast::forecasters
