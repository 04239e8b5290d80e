// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <span>
#include <string>

// The embedded forecaster behind the Forecaster seam (the default): each kernel is forecast
// offline by the compiled-in model from the features of both versions, with NVRTC facts where the
// context has a compiler. It never fails: what it cannot read widens the distribution, and the
// rationale says so.

#include "embedded/pair_features.hpp"
#include "forecast/bin_distribution.hpp"
#include "forecasters/forecaster.hpp"

namespace kforecast::forecasters {

// The forecast of a kernel whose text reads the same at both revisions (ForecastRequest::
// text_unchanged), where the model's features cannot tell the sides apart: a wide distribution
// around no change that no policy trusts, and a rationale that says why and what changed instead.
forecast::BinDistribution unseen_change_distribution();
std::string unseen_change_rationale(std::span<const std::string> changes);

// A forecast made without the kernel's launch (no spec or capture gives its sizes): half its mass
// spread evenly over the bins, so its confidence never rises (no bin holds less than 1/8) and its
// P(regression) moves towards an even chance.
forecast::BinDistribution widened(const forecast::BinDistribution& distribution);

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
