// SPDX-License-Identifier: Apache-2.0
#include "forecasters/embedded_forecaster.hpp"

#include <fmt/format.h>

#include "embedded/pair_forecast.hpp"
#include "embedded/ordinal_model.hpp"
#include "forecasters/forecast_entry.hpp"

namespace kforecast::forecasters {

Result<ForecastRun> EmbeddedForecaster::forecast(std::span<const ForecastRequest> requests) const {
  const embedded::OrdinalModel& model = embedded::default_model();
  const std::string model_text = model.status == embedded::ModelStatus::trained
                                     ? fmt::format("ordinal logistic, trained on {} pairs", model.training_pairs)
                                     : "ordinal logistic, untrained prior";
  // One cache per run: a text both sides (or two kernels) share is read and compiled once.
  embedded::FeatureCache features(m_context);
  ForecastRun run;
  run.kernels.reserve(requests.size());
  for (const auto& request : requests) {
    const auto forecast = embedded::forecast_pair(model, features, request.reference, request.candidate);
    KernelForecast kernel;
    kernel.forecast =
        forecast_entry(std::string(name()), model_text, forecast.distribution, m_tolerance, forecast.rationale);
    run.kernels.push_back(std::move(kernel));
  }
  return run;
}

}  // namespace kforecast::forecasters
