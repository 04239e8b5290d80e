// SPDX-License-Identifier: Apache-2.0
#include "cli/embedded_forecast_step.hpp"

#include <fmt/format.h>

#include "embedded/embedded_forecaster.hpp"
#include "embedded/ordinal_model.hpp"

namespace kforecast::cli {

void add_embedded_forecasts(report::Report& report, const std::vector<EmbeddedKernelInput>& inputs,
                            const embedded::FeatureContext& context, double tolerance) {
  const embedded::OrdinalModel& model = embedded::default_model();
  embedded::FeatureCache features(context);
  for (const auto& input : inputs) {
    const auto forecast = embedded::forecast_pair(model, features, input.reference, input.candidate);
    const auto& distribution = forecast.distribution;
    const auto bin = distribution.predicted_bin();
    report.kernels[input.entry].forecast =
        report::ForecastEntry{"embedded",
                              model.status == embedded::ModelStatus::trained
                                  ? fmt::format("ordinal logistic, trained on {} pairs", model.training_pairs)
                                  : "ordinal logistic, untrained prior",
                              forecast::bin_number(bin),
                              std::string(forecast::bin_label(bin)),
                              distribution.probabilities(),
                              distribution.max_probability(),
                              distribution.p_regression(tolerance),
                              forecast.rationale,
                              distribution.raw_sum(),
                              "",
                              false};
  }
}

}  // namespace kforecast::cli
