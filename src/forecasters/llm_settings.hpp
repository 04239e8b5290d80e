// SPDX-License-Identifier: Apache-2.0
#pragma once

// The LLM forecaster as the config and the environment set it up: endpoint settings, the target
// GPU, the prompt set (built in, or overridden from the base revision), and the forecaster itself
// (forecasters/llm_forecaster.hpp) wired to what its caller hands in: the transport (cli's:
// libcurl), the local GPU's figures and the forecast cache's folder.

#include <expected>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "base/progress.hpp"
#include "config/config.hpp"
#include "cuda/driver.hpp"
#include "forecasters/llm_forecaster.hpp"
#include "git/repository.hpp"
#include "http/http_transport.hpp"
#include "llm/forecast_client.hpp"
#include "llm/gpu_properties.hpp"
#include "llm/prompt_set.hpp"

namespace kforecast::forecasters {

// endpoint.* and the key from the variable endpoint.api_key_env names. An endpoint that is not
// configured is a usage error naming the keys and variables to set.
Result<llm::EndpointSettings> endpoint_settings(const config::Config& config, const EnvLookup& env);

// What the LLM forecaster reaches outside kforecast, handed in by the caller (cli: libcurl, the
// CUDA driver, the cache folder; tests: fakes).
struct LlmWorld {
  // The endpoint's transport, made when a forecaster is (so libcurl loads only then).
  std::function<std::unique_ptr<http::HttpTransport>(const config::Config& config)> transport;
  // forecast.hardware = "local": the first local GPU, or why there is none. Empty: none here.
  std::function<std::expected<cuda::DeviceInfo, std::string>()> local_gpu;
  // endpoint.cache's folder; nullopt: answers are not kept.
  std::optional<std::filesystem::path> cache_directory;
};

// forecast.hardware looked up in the built-in table, or "local" from `world`.
Result<llm::GpuProperties> target_gpu(const config::Config& config, const LlmWorld& world);

// Both of the above, for a command to check before any compile or request, so that a
// misconfigured endpoint or GPU name fails fast.
Result<void> check_llm_settings(const config::Config& config, const EnvLookup& env, const LlmWorld& world);

// The built-in prompts, or those of forecast.prompts read at `revision` ("" reads the work tree).
Result<llm::PromptSet> configured_prompts(const config::Config& config, const git::Repository& repository,
                                          const std::string& revision);

// The LLM forecaster of forecast.* and endpoint.*, sending through `world`'s transport and
// caching as endpoint.cache says. Building it makes the transport (libcurl, for cli), so a command
// builds it only when it has something to forecast. `progress`: a terminal for the progress line, or
// nullptr. `on_failure` and `prompt_notes`: see LlmForecasterSettings. `warnings`: where
// the first retry is announced (standard error), or nullptr. Errors for an
// endpoint or GPU that is not configured, as endpoint_settings and target_gpu.
Result<std::unique_ptr<LlmForecaster>> make_llm_forecaster(const config::Config& config, const EnvLookup& env,
                                                           const LlmWorld& world, llm::PromptSet prompts,
                                                           Progress* progress,
                                                                 OnFailure on_failure = OnFailure::unsure,
                                                                 std::vector<std::string> prompt_notes = {},
                                                                 std::ostream* warnings = nullptr);

}  // namespace kforecast::forecasters
