// SPDX-License-Identifier: Apache-2.0
#include "cli/embedded_forecast_step.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cli/forecast_entry.hpp"
#include "embedded/embedded_forecaster.hpp"
#include "embedded/ordinal_model.hpp"
#include "policy/ptx_cache.hpp"

namespace kforecast::cli {

std::optional<embedded::FactsCache> default_facts_cache(const EnvLookup& env) {
  if (auto directory = policy::default_ptx_cache_directory(env))
    return embedded::FactsCache(directory->parent_path() / "facts");
  return std::nullopt;
}

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

void add_fallback_forecasts(report::Report& report, const std::vector<EmbeddedKernelInput>& inputs,
                            const std::vector<ForecastFailure>& failures, std::string_view failed_forecaster,
                            const embedded::FeatureContext& context, double tolerance) {
  std::vector<EmbeddedKernelInput> failed;
  for (const auto& failure : failures)
    if (auto input = std::ranges::find(inputs, failure.entry, &EmbeddedKernelInput::entry); input != inputs.end())
      failed.push_back(*input);
  add_embedded_forecasts(report, failed, context, tolerance);
  for (const auto& failure : failures) {
    auto& forecast = report.kernels.at(failure.entry).forecast;
    if (!forecast) continue;
    forecast->fallback_for = std::string(failed_forecaster);
    forecast->fallback_reason = failure.reason;
  }
}

}  // namespace kforecast::cli
