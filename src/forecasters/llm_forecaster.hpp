// SPDX-License-Identifier: Apache-2.0
#pragma once

// The LLM forecaster behind the Forecaster seam: every kernel's prompt built from the prompt set
// for the target GPU, then forecast concurrently by the endpoint (cache, retries, validation:
// llm/forecast_batch.hpp). A kernel whose forecast fails gets none and a note, never a pass; the
// run notes say which endpoint forecast how many kernels. cli builds it from the config and the
// environment (forecasters/llm_settings.hpp); tests hand it a fake transport.

#include <chrono>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/progress.hpp"
#include "forecasters/forecaster.hpp"
#include "llm/forecast_cache.hpp"
#include "llm/forecast_client.hpp"
#include "llm/gpu_properties.hpp"
#include "http/http_transport.hpp"
#include "llm/kernel_prompt.hpp"
#include "llm/prompt_set.hpp"

namespace kforecast::forecasters {

// What the notes of a failed kernel promise the reader. Only words: the FallbackForecaster that
// composes this forecaster with the embedded one is what makes `embedded_stands_in` true.
enum class OnFailure {
  unsure,              // forecast.fallback = "none"
  embedded_stands_in,  // forecast.fallback = "embedded"
};

struct LlmForecasterSettings {
  llm::EndpointSettings endpoint;
  llm::GpuProperties gpu;  // forecast.hardware
  llm::PromptSet prompts;
  llm::Comments comments = llm::Comments::keep;  // forecast.strip_comments
  int concurrency = 4;                           // endpoint.concurrency
  std::chrono::milliseconds deadline{0};         // endpoint.deadline_seconds, from the start of a run
  double tolerance = 0.02;                       // bench.tolerance
  OnFailure on_failure = OnFailure::unsure;
  // Run notes said before the summary whenever a kernel is forecast: what every prompt goes
  // without (the config's launch tables that could not be read).
  std::vector<std::string> prompt_notes;
};

class LlmForecaster final : public Forecaster {
 public:
  // `cache`: endpoint.cache's forecast cache, or nullopt. `progress`: a terminal for the
  // progress line, or nullptr. `warnings`: where the first retry of a run is announced
  // (standard error, terminal or not), or nullptr.
  LlmForecaster(LlmForecasterSettings settings, std::unique_ptr<http::HttpTransport> transport,
                std::optional<llm::ForecastCache> cache, Progress* progress, std::ostream* warnings = nullptr);

  std::string_view name() const override { return "llm"; }
  Result<ForecastRun> forecast(std::span<const ForecastRequest> requests) const override;

 private:
  LlmForecasterSettings m_settings;
  std::unique_ptr<http::HttpTransport> m_transport;
  std::optional<llm::ForecastCache> m_cache;
  Progress* m_progress;
  std::ostream* m_warnings;
};

// The URL as a report may show it: no user:password@, no query (either can carry a token).
std::string display_url(std::string url);

}  // namespace kforecast::forecasters
