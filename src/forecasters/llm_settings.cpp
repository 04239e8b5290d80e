// SPDX-License-Identifier: Apache-2.0
#include "forecasters/llm_settings.hpp"

#include <fmt/format.h>

#include "forecasters/local_hardware.hpp"
#include "hardware/gpu_specs.hpp"
#include "llm/forecast_cache.hpp"

namespace kforecast::forecasters {
namespace {

using std::chrono::milliseconds;

milliseconds seconds_setting(const config::Config& config, std::string_view key) {
  return milliseconds(static_cast<std::int64_t>(config.number_value(key) * 1000));
}

}  // namespace

Result<llm::EndpointSettings> endpoint_settings(const config::Config& config, const EnvLookup& env) {
  llm::EndpointSettings settings;
  settings.url = config.string_value("endpoint.url");
  settings.model = config.string_value("endpoint.model");
  if (settings.url.empty())
    return usage_error(
        "the LLM forecaster needs an endpoint: set endpoint.url in .kforecast.toml or KFORECAST_ENDPOINT to an "
        "OpenAI-compatible base URL (e.g. http://127.0.0.1:8000/v1)");
  if (!settings.url.starts_with("http://") && !settings.url.starts_with("https://"))
    return usage_error(fmt::format("endpoint.url '{}' ({}): expected an http:// or https:// URL", settings.url,
                                   config.setting("endpoint.url").origin));
  if (settings.model.empty())
    return usage_error("the LLM forecaster needs a model: set endpoint.model in .kforecast.toml or KFORECAST_MODEL");
  const std::string auth = config.string_value("endpoint.auth");
  settings.auth = auth == "api-key" ? llm::AuthStyle::api_key
                  : auth == "none"  ? llm::AuthStyle::none
                                    : llm::AuthStyle::bearer;
  settings.api_key_variable = config.string_value("endpoint.api_key_env");
  if (settings.auth != llm::AuthStyle::none && !settings.api_key_variable.empty())
    if (auto key = env(settings.api_key_variable)) settings.api_key = *key;
  if (settings.auth == llm::AuthStyle::api_key && settings.api_key.empty())
    return usage_error(fmt::format("endpoint.auth is 'api-key' but ${} is empty or unset: set it to the key",
                                   settings.api_key_variable));
  settings.api_version = config.string_value("endpoint.api_version");
  settings.temperature = config.number_value("endpoint.temperature");
  settings.max_tokens = static_cast<int>(config.integer_value("endpoint.max_tokens"));
  settings.samples = static_cast<int>(config.integer_value("endpoint.samples"));
  settings.max_retries = static_cast<int>(config.integer_value("endpoint.max_retries"));
  settings.request_timeout = seconds_setting(config, "endpoint.timeout_seconds");
  return settings;
}

Result<void> check_llm_settings(const config::Config& config, const EnvLookup& env, const LlmWorld& world) {
  if (auto settings = endpoint_settings(config, env); !settings) return std::unexpected(settings.error());
  if (auto gpu = target_gpu(config, world); !gpu) return std::unexpected(gpu.error());
  return {};
}

Result<llm::GpuProperties> target_gpu(const config::Config& config, const LlmWorld& world) {
  const std::string name = config.string_value("forecast.hardware");
  if (auto gpu = llm::find_gpu(name)) return *gpu;
  if (name == "local") {
    auto device = world.local_gpu ? world.local_gpu() : std::unexpected(std::string("no CUDA driver is offered here"));
    if (!device)
      return usage_error(fmt::format("forecast.hardware is 'local' ({}) but {}; name a GPU instead: one of {}",
                                     config.setting("forecast.hardware").origin, device.error(),
                                     hardware::gpu_names()));
    return local_hardware_properties(*device);
  }
  return usage_error(
      fmt::format("forecast.hardware '{}' ({}) is not a GPU kforecast knows; use one of {}, or "
                  "\"local\" for this machine's GPU",
                  name, config.setting("forecast.hardware").origin, hardware::gpu_names()));
}

Result<llm::PromptSet> configured_prompts(const config::Config& config, const git::Repository& repository,
                                          const std::string& revision) {
  const std::string directory = config.string_value("forecast.prompts");
  if (directory.empty()) return llm::builtin_prompts();
  if (revision.empty()) return llm::load_prompts(repository.root() / directory);
  // At the base revision, like the config itself: a pull request cannot rewrite its own prompt.
  std::vector<std::string> paths;
  for (const char* name : {"system.txt", "user.txt", "repair.txt", "answer_schema.json"})
    paths.push_back((std::filesystem::path(directory) / name).generic_string());
  auto files = repository.read_files(revision, paths);
  if (!files) return std::unexpected(files.error());
  std::map<std::string, std::string, std::less<>> found;
  for (const auto& [path, text] : *files)
    if (text) found.emplace(std::filesystem::path(path).filename().string(), *text);
  return llm::prompts_with_overrides(found, fmt::format("{}:{}", revision.substr(0, 12), directory));
}

Result<std::unique_ptr<forecasters::LlmForecaster>> make_llm_forecaster(const config::Config& config, const EnvLookup& env,
                                                                        const LlmWorld& world, llm::PromptSet prompts,
                                                                        Progress* progress,
                                                                 forecasters::OnFailure on_failure,
                                                                 std::vector<std::string> prompt_notes,
                                                                 std::ostream* warnings) {
  auto endpoint = endpoint_settings(config, env);
  if (!endpoint) return std::unexpected(endpoint.error());
  auto gpu = target_gpu(config, world);
  if (!gpu) return std::unexpected(gpu.error());
  forecasters::LlmForecasterSettings settings{
      std::move(*endpoint),
      std::move(*gpu),
      std::move(prompts),
      config.boolean_value("forecast.strip_comments") ? llm::Comments::strip : llm::Comments::keep,
      static_cast<int>(config.integer_value("endpoint.concurrency")),
      seconds_setting(config, "endpoint.deadline_seconds"),
      config.number_value("bench.tolerance"),
      on_failure,
      std::move(prompt_notes)};
  if (!world.transport) return fail(ExitCode::could_not_run, "no HTTP transport is offered here");
  auto transport = world.transport(config);
  std::optional<llm::ForecastCache> cache;
  if (config.boolean_value("endpoint.cache") && world.cache_directory) cache.emplace(*world.cache_directory);
  return std::make_unique<forecasters::LlmForecaster>(std::move(settings), std::move(transport), std::move(cache), progress,
                                               warnings);
}

}  // namespace kforecast::forecasters
