// SPDX-License-Identifier: Apache-2.0
#include "cli/llm_forecast_step.hpp"

#include <ostream>

#include <fmt/format.h>

#include "cli/forecast_entry.hpp"
#include "cli/local_gpu.hpp"
#include "cuda/cuda_driver.hpp"
#include "llm/curl_transport.hpp"
#include "llm/forecast_batch.hpp"
#include "llm/source_text.hpp"

namespace kforecast::cli {
namespace {

using std::chrono::milliseconds;

milliseconds seconds_setting(const config::Config& config, std::string_view key) {
  return milliseconds(static_cast<std::int64_t>(config.number_value(key) * 1000));
}

report::ForecastEntry report_entry(const llm::LlmForecast& forecast, double tolerance) {
  auto entry = forecast_entry("llm", forecast.model, forecast.distribution, tolerance, forecast.rationale);
  entry.prompt_version = forecast.prompt_version;
  entry.cached = forecast.from_cache;
  return entry;
}

constexpr std::string_view unbuilt_note = "not verified: the forecasters and the GPU benchmark are not built yet";

void replace_unbuilt_note(report::KernelEntry& entry, std::string text) {
  for (auto& note : entry.notes)
    if (note == unbuilt_note) {
      note = std::move(text);
      return;
    }
  entry.notes.push_back(std::move(text));
}

// The URL as a report may show it: no user:password@, no query (either can carry a token).
std::string display_url(std::string url) {
  if (auto query = url.find('?'); query != std::string::npos) url.resize(query);
  const auto scheme = url.find("://");
  const auto at = url.find('@', scheme == std::string::npos ? 0 : scheme + 3);
  const auto path = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
  if (scheme != std::string::npos && at != std::string::npos && (path == std::string::npos || at < path))
    url.erase(scheme + 3, at - scheme - 2);
  return url;
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

Result<void> check_llm_settings(const config::Config& config, const EnvLookup& env) {
  if (auto settings = endpoint_settings(config, env); !settings) return std::unexpected(settings.error());
  if (auto gpu = target_gpu(config); !gpu) return std::unexpected(gpu.error());
  return {};
}

Result<llm::GpuProperties> target_gpu(const config::Config& config) {
  const std::string name = config.string_value("forecast.hardware");
  if (auto gpu = llm::find_gpu(name)) return *gpu;
  if (name == "local") {
    auto driver = cuda::load_driver({"", config.string_value("cuda.driver_library")});
    if (!driver)
      return usage_error(fmt::format("forecast.hardware is 'local' ({}) but {}; name a GPU instead: one of {}",
                                     config.setting("forecast.hardware").origin, driver.error().what,
                                     llm::known_gpu_names()));
    auto devices = (*driver)->devices();
    if (!devices || devices->empty())
      return usage_error(
          fmt::format("forecast.hardware is 'local' ({}) but no GPU is visible{}; name a GPU instead: "
                      "one of {}",
                      config.setting("forecast.hardware").origin, devices ? "" : " (" + devices.error().message + ")",
                      llm::known_gpu_names()));
    return local_gpu_properties(devices->front());
  }
  return usage_error(
      fmt::format("forecast.hardware '{}' ({}) is not a GPU kforecast knows; use one of {}, or "
                  "\"local\" for this machine's GPU",
                  name, config.setting("forecast.hardware").origin, llm::known_gpu_names()));
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

Result<std::vector<ForecastFailure>> add_llm_forecasts(report::Report& report,
                                                       const std::vector<LlmKernelInput>& inputs,
                                                       const LlmStepOptions& options) {
  std::vector<ForecastFailure> failures;
  if (inputs.empty()) return failures;
  auto settings = endpoint_settings(options.config, options.env);
  if (!settings) return std::unexpected(settings.error());
  auto gpu = target_gpu(options.config);
  if (!gpu) return std::unexpected(gpu.error());
  const auto comments =
      options.config.boolean_value("forecast.strip_comments") ? llm::Comments::strip : llm::Comments::keep;
  std::vector<llm::PromptMessages> prompts;
  for (const auto& input : inputs) {
    auto prompt = llm::build_prompt(options.prompts, input.pair, *gpu, comments);
    if (!prompt) return std::unexpected(prompt.error());
    prompts.push_back(std::move(*prompt));
  }

  const auto transport = llm::make_curl_transport(
      {llm::proxy_settings_from(options.env), options.config.string_value("endpoint.ca_bundle"),
       std::chrono::seconds(static_cast<std::int64_t>(options.config.number_value("endpoint.stall_seconds")))});
  const auto deadline = std::chrono::steady_clock::now() + seconds_setting(options.config, "endpoint.deadline_seconds");
  llm::ForecastClient client(*settings, *transport, options.prompts, deadline);
  std::optional<llm::ForecastCache> cache;
  if (options.config.boolean_value("endpoint.cache"))
    if (auto directory = llm::default_forecast_cache_directory(options.env)) cache.emplace(*directory);

  llm::BatchOptions batch{
      static_cast<int>(options.config.integer_value("endpoint.concurrency")), cache ? &*cache : nullptr, {}};
  if (options.progress != nullptr)
    batch.progress = [&](std::size_t done, std::size_t total) {
      *options.progress << (done < total ? fmt::format("\rkforecast: forecasting with {}: {}/{} kernels",
                                                       settings->model, done, total)
                                         : std::string("\r\x1b[K"))
                        << std::flush;
    };
  const auto outcomes = llm::forecast_all(client, prompts, batch);

  const double tolerance = options.config.number_value("bench.tolerance");
  int failed = 0, cached = 0, requests = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    report::KernelEntry& entry = report.kernels.at(inputs[i].entry);
    for (const auto& note : inputs[i].notes) entry.notes.push_back(note);
    if (auto markers = llm::steering_markers(inputs[i].candidate_raw); !markers.empty())
      entry.notes.push_back(
          fmt::format("the candidate's source holds text addressed to a language model (\"{}\"): "
                      "the LLM forecast may have been steered",
                      fmt::join(markers, "\", \"")));
    const auto& outcome = outcomes[i];
    if (!outcome) {
      ++failed;
      requests += outcome.error().requests;
      replace_unbuilt_note(
          entry, fmt::format("no LLM forecast ({}): {}", outcome.error().message,
                             options.embedded_fallback
                                 ? "the embedded forecaster's forecast stands in (forecast.fallback = \"embedded\")"
                                 : "treated as unsure"));
      failures.push_back({inputs[i].entry, outcome.error().message});
      continue;
    }
    requests += outcome->requests;
    cached += outcome->from_cache ? 1 : 0;
    entry.forecast = report_entry(*outcome, tolerance);
    for (const auto& note : outcome->notes) entry.notes.push_back("LLM: " + note);
    std::erase(entry.notes, std::string(unbuilt_note));  // the policy step decides what the forecast settles
  }
  report.notes.push_back(
      fmt::format("LLM forecaster: {} at {}, prompts {}; {} kernel{} forecast ({} from the cache), "
                  "{} failed{}, {} request{}",
                  settings->model, display_url(settings->url), options.prompts.version, inputs.size() - failed,
                  inputs.size() - failed == 1 ? "" : "s", cached, failed,
                  failed > 0 && options.embedded_fallback ? " (forecast by the embedded forecaster instead)" : "",
                  requests, requests == 1 ? "" : "s"));
  return failures;
}

}  // namespace kforecast::cli
