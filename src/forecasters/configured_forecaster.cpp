// SPDX-License-Identifier: Apache-2.0
#include "forecasters/configured_forecaster.hpp"

#include <memory>

#include "forecasters/embedded_forecaster.hpp"
#include "forecasters/fallback_forecaster.hpp"
#include "forecasters/llm_settings.hpp"

namespace kforecast::forecasters {

ForecasterFactory configured_forecaster(const config::Config& config, EnvLookup env, LlmWorld world,
                                        Progress* progress, std::ostream& warnings) {
  return [&config, env = std::move(env), world = std::move(world), progress, &warnings](
             const embedded::FeatureContext& features, std::optional<llm::PromptSet> prompts,
             std::vector<std::string> prompt_notes) -> Result<std::unique_ptr<Forecaster>> {
    auto embedded = std::make_unique<EmbeddedForecaster>(features, config.number_value("bench.tolerance"));
    if (!prompts) return std::unique_ptr<Forecaster>(std::move(embedded));
    const bool fallback = config.string_value("forecast.fallback") == "embedded";
    auto llm = make_llm_forecaster(config, env, world, std::move(*prompts), progress,
                                   fallback ? OnFailure::embedded_stands_in : OnFailure::unsure,
                                   std::move(prompt_notes), &warnings);
    if (!llm) return std::unexpected(llm.error());
    if (!fallback) return std::unique_ptr<Forecaster>(std::move(*llm));
    return std::unique_ptr<Forecaster>(std::make_unique<FallbackForecaster>(std::move(*llm), std::move(embedded)));
  };
}

}  // namespace kforecast::forecasters
