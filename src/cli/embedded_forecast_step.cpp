// SPDX-License-Identifier: Apache-2.0
#include "cli/embedded_forecast_step.hpp"

#include <fmt/format.h>

#include "cli/forecast_entry.hpp"
#include "embedded/embedded_forecaster.hpp"
#include "embedded/ordinal_model.hpp"

namespace kforecast::cli {

void add_embedded_forecasts(report::Report& report, const std::vector<EmbeddedKernelInput>& inputs,
                            const embedded::FeatureContext& context, double tolerance) {
  const embedded::OrdinalModel& model = embedded::default_model();
  embedded::FeatureCache features(context);
  for (const auto& input : inputs) {
    const auto forecast = embedded::forecast_pair(model, features, input.reference, input.candidate);
    report.kernels[input.entry].forecast =
        forecast_entry("embedded",
                       model.status == embedded::ModelStatus::trained
                           ? fmt::format("ordinal logistic, trained on {} pairs", model.training_pairs)
                           : "ordinal logistic, untrained prior",
                       forecast.distribution, tolerance, forecast.rationale);
  }
}

}  // namespace kforecast::cli
