// SPDX-License-Identifier: Apache-2.0
#pragma once

// The LLM forecaster's client for one OpenAI-compatible endpoint: non-streaming chat
// completions, the structured-output ladder (remembered for the run: once a server refuses a
// rung, no later request offers it), answer extraction and validation, one repair request for an
// invalid answer, one retry with a larger budget for a cut-off answer, retries with the server's
// Retry-After or jittered backoff, and one deadline over everything. An endpoint that could not be
// reached after all the retries of one request is not asked again in the run. Safe to call from
// several threads at once.
//
// Failure is a value (ForecastFailure), never a forecast: the caller reports the kernel as
// unforecast and the policy treats it as unsure.

#include <atomic>
#include <chrono>
#include <expected>
#include <functional>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "forecast/bin_distribution.hpp"
#include "http/http_transport.hpp"
#include "llm/kernel_prompt.hpp"
#include "llm/prompt_set.hpp"
#include "llm/request_body.hpp"
#include "http/retry_delay.hpp"

namespace kforecast::llm {

enum class AuthStyle { bearer, api_key, none };

struct EndpointSettings {
  std::string url;    // base URL, ".../v1"; Azure: "https://NAME.openai.azure.com/openai"
  std::string model;  // the model name; on Azure's dated API, the deployment name
  AuthStyle auth = AuthStyle::bearer;
  std::string api_key;                                 // secret: only ever placed in a header
  std::string api_key_variable = "KFORECAST_API_KEY";  // named in messages instead of the key
  std::string api_version;  // Azure's dated API: {url}/deployments/{model}/chat/completions?api-version=
  double temperature = 0.0;
  int max_tokens = 4096;
  int samples = 1;  // self-consistency: this many answers averaged into one distribution
  int max_retries = 4;
  std::chrono::milliseconds request_timeout{120000};
  http::BackoffPolicy backoff;
};

struct LlmForecast {
  forecast::BinDistribution distribution = forecast::BinDistribution::uniform();
  std::string rationale;
  std::optional<forecast::SpeedupBin> stated_bin;  // what the model named (the report uses the distribution's)
  std::string model;
  std::string prompt_version;
  std::string method;  // "json_schema", "forced tool call", ...
  int samples = 1;
  int requests = 0;  // HTTP requests this forecast took (0 from the cache)
  bool from_cache = false;
  std::vector<std::string> notes;
};

struct ForecastFailure {
  std::string message;
  int requests = 0;
};

using ForecastOutcome = std::expected<LlmForecast, ForecastFailure>;

// The outside world's clock, as a seam: tests record sleeps instead of waiting.
struct ClientClock {
  std::function<std::chrono::steady_clock::time_point()> now = [] { return std::chrono::steady_clock::now(); };
  std::function<std::chrono::system_clock::time_point()> wall_now = [] { return std::chrono::system_clock::now(); };
  std::function<void(std::chrono::milliseconds)> sleep;  // default: std::this_thread::sleep_for
  std::uint64_t jitter_seed = 0;                         // 0: from std::random_device
};

class ForecastClient {
 public:
  ForecastClient(EndpointSettings settings, const http::HttpTransport& transport, PromptSet prompts,
                 std::chrono::steady_clock::time_point deadline, ClientClock clock = {});

  ForecastOutcome forecast(const PromptMessages& messages);

  // Called before each retry's wait, from any thread, with what failed and how long the wait is
  // (key redacted), so a failing endpoint is seen while it is retried, not only when it gives up.
  using RetryNotice = std::function<void(std::string_view)>;
  void on_retry(RetryNotice notice) { m_on_retry = std::move(notice); }

  // The rung the next request starts at.
  OutputRung rung() const { return static_cast<OutputRung>(m_rung.load()); }

  std::string chat_url() const;
  std::string models_url() const;
  // A request to the endpoint with its auth header(s) set.
  http::HttpRequest authorised_request(std::string method, std::string url, std::string body) const;

  const EndpointSettings& settings() const { return m_settings; }
  const PromptSet& prompts() const { return m_prompts; }

  // `text` with the API key replaced by "[redacted]": applied to everything that comes back
  // from the server before it reaches a message, a report or the cache.
  std::string redact(const std::string& text) const;

 private:
  struct Exchange;
  ForecastOutcome one_sample(const PromptMessages& messages);
  Exchange exchange(const std::string& body, int& requests);
  std::chrono::milliseconds remaining() const;
  void step_down(int from);

  EndpointSettings m_settings;
  const http::HttpTransport& m_transport;
  PromptSet m_prompts;
  std::chrono::steady_clock::time_point m_deadline;
  ClientClock m_clock;
  std::atomic<int> m_rung{0};
  std::atomic<int> m_token_field{0};
  std::mutex m_random_mutex;
  std::mt19937_64 m_random;
  RetryNotice m_on_retry;
  // Set once a request gave up on the transport (no connection, a stall, a timeout) after all
  // its retries: the endpoint is down, so the run's later kernels are not sent, each waiting out
  // the same retries and stall limits, but fail at once with this message.
  mutable std::mutex m_unreachable_mutex;
  std::optional<std::string> m_unreachable;
};

}  // namespace kforecast::llm
