// SPDX-License-Identifier: Apache-2.0
#pragma once

// The real ForecastClient over real HTTP (libcurl) against a scripted loopback server. Sleeps
// between retries are recorded, not slept, so retry tests are fast and can assert the delays.

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_string.hpp"
#include "http/curl_transport.hpp"
#include "llm/fixture_text.hpp"
#include "llm/forecast_client.hpp"
#include "support/fake_http_server.hpp"

namespace kforecast::testing {

using namespace std::chrono_literals;

// A completion whose content is `content` (any text), with a finish reason.
inline std::string content_completion(const std::string& content, const std::string& finish = "stop") {
  return fmt::format(
      R"({{"id":"c","object":"chat.completion","model":"m","choices":[{{"index":0,"message":{{"role":"assistant","content":{}}},"finish_reason":{}}}]}})",
      json_string(content), json_string(finish));
}

// An answer object with the given eight probability texts and predicted bin text.
inline std::string answer_object(const std::array<std::string, 8>& p, const std::string& bin = "5",
                                 const std::string& rationale = "loads are coalesced") {
  std::string text = fmt::format(R"({{"rationale":{})", json_string(rationale));
  const char* names[] = {"p1_severe_slowdown", "p2_significant_slowdown", "p3_moderate_slowdown", "p4_minor_slowdown",
                         "p5_minor_speedup",   "p6_significant_speedup",  "p7_high_speedup",      "p8_extreme_speedup"};
  for (std::size_t i = 0; i < 8; ++i)
    if (!p[i].empty()) text += fmt::format(R"(,"{}":{})", names[i], p[i]);
  return text + R"(,"predicted_bin":)" + bin + "}";
}

inline std::string good_answer() { return answer_object({"0", "0", "0", "0.2", "0.6", "0.2", "0", "0"}); }

inline ScriptedResponse ok(const std::string& body) { return ScriptedResponse::json(200, body); }
inline ScriptedResponse fixture_response(int status, const std::string& name) {
  return ScriptedResponse::json(status, endpoint_fixture(name));
}

struct ClientHarness {
  FakeHttpServer server;
  std::unique_ptr<http::HttpTransport> transport;
  std::mutex sleeps_mutex;
  std::vector<std::chrono::milliseconds> sleeps;

  explicit ClientHarness(std::chrono::seconds stall_limit = 30s)
      : transport(http::make_curl_transport({.stall_limit = stall_limit})) {}

  llm::EndpointSettings settings() const {
    llm::EndpointSettings settings;
    settings.url = server.base_url() + "/v1";
    settings.model = "test-model";
    settings.max_tokens = 1000;
    settings.max_retries = 3;
    settings.request_timeout = 10s;
    settings.backoff = {10ms, 100ms, 60000ms};
    return settings;
  }

  llm::ClientClock clock() {
    llm::ClientClock clock;
    clock.sleep = [this](std::chrono::milliseconds delay) {
      std::lock_guard lock(sleeps_mutex);
      sleeps.push_back(delay);
    };
    clock.jitter_seed = 42;
    return clock;
  }

  std::unique_ptr<llm::ForecastClient> client(llm::EndpointSettings settings, std::chrono::seconds deadline = 60s) {
    return std::make_unique<llm::ForecastClient>(std::move(settings), *transport, llm::builtin_prompts(),
                                                 std::chrono::steady_clock::now() + deadline, clock());
  }
  std::unique_ptr<llm::ForecastClient> client() { return client(settings()); }

  // The n-th request's body, parsed.
  nlohmann::json body(std::size_t n) const {
    const auto all = server.requests();
    return nlohmann::json::parse(all.at(n).body);
  }
};

inline const llm::PromptMessages& test_prompt() {
  static const llm::PromptMessages prompt{"system text", "user text: kernel k"};
  return prompt;
}

}  // namespace kforecast::testing
