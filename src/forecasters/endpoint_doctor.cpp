// SPDX-License-Identifier: Apache-2.0
#include "forecasters/endpoint_doctor.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "forecasters/llm_settings.hpp"
#include "llm/endpoint_check.hpp"
#include "llm/forecast_client.hpp"
#include "llm/prompt_set.hpp"

namespace kforecast::forecasters {

std::vector<StatusLine> describe_endpoint(const Result<config::Config>& config, const EnvLookup& env,
                                          const http::HttpTransport& transport) {
  if (!config || config->string_value("endpoint.url").empty())
    return {{"endpoint", "not configured (set endpoint.url or KFORECAST_ENDPOINT for the LLM forecaster)"}};
  const std::string where =
      fmt::format("{} ({})", config->string_value("endpoint.url"), config->setting("endpoint.url").origin);
  auto settings = endpoint_settings(*config, env);
  if (!settings) return {{"endpoint", fmt::format("{}: {}", where, settings.error().message)}};
  settings->max_retries = std::min(settings->max_retries, 1);
  llm::ForecastClient client(*settings, transport, llm::builtin_prompts(),
                             std::chrono::steady_clock::now() + std::chrono::minutes(3));
  const auto models = llm::check_models(client, transport);
  if (!models.reachable || !models.authenticated) return {{"endpoint", fmt::format("{}: {}", where, models.problem)}};
  std::string listed = models.problem.empty() ? "" : fmt::format("; model list unavailable ({})", models.problem);
  if (models.problem.empty())
    listed = std::ranges::find(models.models, settings->model) != models.models.end()
                 ? fmt::format("; model '{}' listed", settings->model)
                 : fmt::format("; model '{}' NOT among the {} listed (check endpoint.model)", settings->model,
                               models.models.size());
  const auto output = llm::check_structured_output(client);
  return {{"endpoint", fmt::format("{}: reachable, key accepted{}", where, listed)},
          {"output", output.works ? fmt::format("structured output works: {} ({} request{})", output.method,
                                                output.requests, output.requests == 1 ? "" : "s")
                                  : fmt::format("no forecast from the endpoint: {}", output.problem)}};
}

}  // namespace kforecast::forecasters
