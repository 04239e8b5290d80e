// SPDX-License-Identifier: Apache-2.0
#include "llm/forecast_client.hpp"

#include "base/redaction.hpp"

#include <sys/random.h>

#include <cmath>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"
#include "base/redaction.hpp"
#include "llm/answer_extraction.hpp"
#include "llm/answer_validation.hpp"
#include "llm/endpoint_error.hpp"
#include "llm/prompt_template.hpp"

namespace kforecast::llm {

using std::chrono::milliseconds;

struct ForecastClient::Exchange {
  enum class Outcome { answered, bad_request, failed } outcome = Outcome::failed;
  http::HttpResponse response;
  EndpointError error;  // for bad_request
  std::string message;  // for failed
};

namespace {

std::string trimmed_url(std::string url) {
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

bool retryable_status(long status) { return status == 408 || status == 409 || status == 429 || status >= 500; }

// A 2xx body that is a chat completion; anything else (HTML from a proxy, an error object, a
// body cut short) is a failed attempt worth retrying.
std::optional<std::string> not_a_completion(const std::string& body) {
  const auto root = json_document::parse(body);
  if (!root)
    return fmt::format("a success status with a body that is not JSON ({})", parse_endpoint_error(body).message);
  if (json_document::find(*root, "choices") != nullptr) return std::nullopt;
  return fmt::format("a success status with no completion in it ({})", parse_endpoint_error(body).message);
}

ForecastOutcome failure(std::string message, int requests) {
  return std::unexpected(ForecastFailure{std::move(message), requests});
}

// The jitter's seed from the kernel's random source. Not std::random_device: with the C++ runtime
// linked in, it brings libstdc++'s arc4random call, which needs glibc 2.36, and the binary must
// run on 2.35 (ubuntu-22.04).
std::uint64_t fresh_seed() {
  std::uint64_t seed = 0;
  if (getrandom(&seed, sizeof seed, 0) != static_cast<ssize_t>(sizeof seed))
    seed = static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  return seed;
}

}  // namespace

ForecastClient::ForecastClient(EndpointSettings settings, const http::HttpTransport& transport, PromptSet prompts,
                               std::chrono::steady_clock::time_point deadline, ClientClock clock)
    : m_settings(std::move(settings)),
      m_transport(transport),
      m_prompts(std::move(prompts)),
      m_deadline(deadline),
      m_clock(std::move(clock)),
      m_random(m_clock.jitter_seed != 0 ? m_clock.jitter_seed : fresh_seed()) {
  m_settings.url = trimmed_url(m_settings.url);
  if (!m_clock.sleep) m_clock.sleep = [](milliseconds delay) { std::this_thread::sleep_for(delay); };
}

std::string ForecastClient::chat_url() const {
  if (!m_settings.api_version.empty())
    return fmt::format("{}/deployments/{}/chat/completions?api-version={}", m_settings.url, m_settings.model,
                       m_settings.api_version);
  return m_settings.url + "/chat/completions";
}

std::string ForecastClient::models_url() const {
  if (!m_settings.api_version.empty())
    return fmt::format("{}/models?api-version={}", m_settings.url, m_settings.api_version);
  return m_settings.url + "/models";
}

http::HttpRequest ForecastClient::authorised_request(std::string method, std::string url, std::string body) const {
  http::HttpRequest request{std::move(method),
                      std::move(url),
                      {{"Content-Type", "application/json"}},
                      std::move(body),
                      m_settings.request_timeout};
  request.headers.emplace_back("Accept", "application/json");
  // No key set: send none and let a 401 explain which variable to set (local servers need none).
  if (!m_settings.api_key.empty()) {
    if (m_settings.auth == AuthStyle::bearer)
      request.headers.emplace_back("Authorization", "Bearer " + m_settings.api_key);
    if (m_settings.auth == AuthStyle::api_key) request.headers.emplace_back("api-key", m_settings.api_key);
  }
  return request;
}

std::string ForecastClient::redact(const std::string& text) const {
  // The one redaction rule (base/redaction.hpp): a "key" of a few characters is no secret, and
  // hiding it would garble ordinary words ("endpoint.ma[redacted]_retries" for a key of "x").
  SecretSet key;
  key.add(m_settings.api_key);
  return key.redact(text);
}

milliseconds ForecastClient::remaining() const {
  return std::chrono::duration_cast<milliseconds>(m_deadline - m_clock.now());
}

void ForecastClient::step_down(int from) {
  // Several threads may see the same refusal; only the first of them moves the ladder.
  if (from + 1 < rung_count) m_rung.compare_exchange_strong(from, from + 1);
}

ForecastClient::Exchange ForecastClient::exchange(const std::string& body, int& requests) {
  using Outcome = Exchange::Outcome;
  {
    std::lock_guard lock(m_unreachable_mutex);
    if (m_unreachable)
      return {Outcome::failed,
              {},
              {},
              fmt::format("not sent: the endpoint could not be reached for an earlier kernel of this run ({})",
                          *m_unreachable)};
  }
  std::string last_problem;
  for (int attempt = 0;; ++attempt) {
    const milliseconds left = remaining();
    if (left <= milliseconds(0))
      return {Outcome::failed,
              {},
              {},
              last_problem.empty() ? "the overall deadline (endpoint.deadline_seconds) passed before the request"
                                   : "the overall deadline (endpoint.deadline_seconds) passed; last: " + last_problem};
    http::HttpRequest request = authorised_request("POST", chat_url(), body);
    request.timeout = std::min(m_settings.request_timeout, left);
    ++requests;
    http::HttpResult result = m_transport.send(request);
    std::optional<milliseconds> server_delay;
    if (!result) {
      last_problem = fmt::format("{}: {}", to_string(result.error().kind), result.error().message);
    } else if (result->status >= 200 && result->status < 300) {
      auto problem = not_a_completion(result->body);
      if (!problem) return {Outcome::answered, std::move(*result), {}, {}};
      last_problem = *problem;
    } else {
      const EndpointError error = parse_endpoint_error(result->body);
      last_problem = fmt::format("HTTP {}: {}", result->status, error.message);
      if (result->status == 429 && is_insufficient_quota(error))
        return {Outcome::failed,
                {},
                {},
                fmt::format("the endpoint's account is out of quota ({}); not retried", last_problem)};
      if (!retryable_status(result->status)) {
        if (result->status == 400) return {Outcome::bad_request, {}, error, {}};
        if (result->status == 401 || result->status == 403)
          return {Outcome::failed,
                  {},
                  {},
                  fmt::format("{} refused the credentials ({}); check the key in ${} and endpoint.auth", m_settings.url,
                              last_problem, m_settings.api_key_variable)};
        if (result->status == 404)
          return {Outcome::failed,
                  {},
                  {},
                  fmt::format("{} ({}); check endpoint.url (the base URL, e.g. http://host:8000/v1) and "
                              "endpoint.model",
                              chat_url(), last_problem)};
        return {Outcome::failed, {}, {}, last_problem};
      }
      server_delay = http::server_retry_delay(*result, m_clock.wall_now());
    }
    if (attempt >= m_settings.max_retries) {
      std::string message = fmt::format("gave up after {} attempt{} (endpoint.max_retries = {}); last: {}", attempt + 1,
                                        attempt == 0 ? "" : "s", m_settings.max_retries, last_problem);
      // Only the transport says the endpoint itself is down; an HTTP error may be this request's.
      if (!result) {
        std::lock_guard lock(m_unreachable_mutex);
        if (!m_unreachable) m_unreachable = message;
      }
      return {Outcome::failed, {}, {}, std::move(message)};
    }
    milliseconds delay{};
    if (server_delay) {
      delay = std::min(*server_delay, m_settings.backoff.server_cap);
    } else {
      std::lock_guard lock(m_random_mutex);
      delay = http::backoff_delay(m_settings.backoff, attempt, m_random);
    }
    if (delay >= remaining())
      return {Outcome::failed,
              {},
              {},
              fmt::format("the overall deadline (endpoint.deadline_seconds) would pass before the next retry; "
                          "last: {}",
                          last_problem)};
    if (m_on_retry)
      m_on_retry(
          redact(fmt::format("attempt {} of {} failed ({}); retrying in {:.1f} s", attempt + 1,
                             m_settings.max_retries + 1, last_problem, static_cast<double>(delay.count()) / 1000)));
    m_clock.sleep(delay);
  }
}

ForecastOutcome ForecastClient::one_sample(const PromptMessages& messages) {
  int requests = 0;
  std::vector<ChatMessage> chat{{"system", messages.system}, {"user", messages.user}};
  int max_tokens = m_settings.max_tokens;
  bool repaired = false, lengthened = false;
  std::vector<std::string> notes;
  // Each round either returns or uses up one of: a rung (5), the token field (1), the larger
  // budget (1), the repair (1); so 16 rounds are never reached.
  for (int round = 0; round < 16; ++round) {
    const int rung = m_rung.load();
    const RequestShape shape{m_settings.model, static_cast<OutputRung>(rung),
                             static_cast<TokenField>(m_token_field.load()), max_tokens, m_settings.temperature};
    Exchange exchanged = exchange(chat_request_body(shape, chat, m_prompts.answer_schema), requests);
    if (exchanged.outcome == Exchange::Outcome::failed) return failure(redact(exchanged.message), requests);
    if (exchanged.outcome == Exchange::Outcome::bad_request) {
      if (rejects_max_tokens(exchanged.error) && shape.token_field == TokenField::max_tokens) {
        m_token_field.store(static_cast<int>(TokenField::max_completion_tokens));
        continue;
      }
      if (rejects_structured_output(exchanged.error) && shape.rung != OutputRung::plain) {
        step_down(rung);
        continue;
      }
      return failure(redact(fmt::format("the endpoint refused the request (HTTP 400: {}); check endpoint.model and "
                                        "endpoint.max_tokens",
                                        exchanged.error.message)),
                     requests);
    }
    auto answer = extract_answer(exchanged.response.body, forecast_tool_name);
    if (!answer) return failure(redact(answer.error().message), requests);
    std::string problem;
    if (answer->json) {
      auto valid = validate_answer(*answer->json);
      if (valid) {
        LlmForecast result;
        result.distribution = valid->distribution;
        result.rationale = redact(valid->rationale);
        result.stated_bin = valid->stated_bin;
        result.model = m_settings.model;
        result.prompt_version = m_prompts.version;
        result.method = fmt::format("{} ({})", to_string(shape.rung), answer->where);
        result.requests = requests;
        result.notes = std::move(notes);
        // Decimal probabilities rarely add to exactly 1.0 in binary: only a real gap is news.
        if (std::abs(valid->distribution.raw_sum() - 1.0) > 1e-6)
          result.notes.push_back(
              fmt::format("the model's probabilities summed to {:.3g}; renormalised", valid->distribution.raw_sum()));
        return result;
      }
      problem = valid.error().message;
    } else {
      problem = "the answer holds no JSON object";
    }
    if (answer->finish_reason == "length") {
      if (lengthened)
        return failure(fmt::format("the answer was cut off twice (finish_reason \"length\" at {} tokens); raise "
                                   "endpoint.max_tokens",
                                   max_tokens),
                       requests);
      lengthened = true;
      notes.push_back(
          fmt::format("the answer was cut off at {} tokens; asked again with {}", max_tokens, max_tokens * 2));
      max_tokens *= 2;
      continue;
    }
    if (!answer->json && shape.rung != OutputRung::plain) {
      step_down(rung);
      continue;
    }
    if (repaired)
      return failure(redact(fmt::format("the model's answer is invalid after one repair request: {}", problem)),
                     requests);
    repaired = true;
    notes.push_back(redact(fmt::format("the first answer was invalid ({}); one repair request sent", problem)));
    auto repair = render_template(m_prompts.repair, {{"validation_error", problem}}, "prompts/repair.txt");
    if (!repair) return failure(repair.error().message, requests);
    chat.push_back(
        {"assistant", answer->raw_text.empty() ? std::string("(empty answer)") : answer->raw_text.substr(0, 8192)});
    chat.push_back({"user", std::move(*repair)});
  }
  return failure("the endpoint's answers kept changing shape; no forecast", requests);
}

ForecastOutcome ForecastClient::forecast(const PromptMessages& messages) {
  if (m_settings.samples <= 1) return one_sample(messages);
  // Self-consistency: independent answers averaged bin by bin. Samples that fail are left out
  // (and noted); the forecast fails only when every sample did.
  std::array<double, forecast::bin_count> sum{};
  std::optional<LlmForecast> first;
  std::string last_failure;
  int requests = 0, good = 0;
  for (int sample = 0; sample < m_settings.samples; ++sample) {
    auto outcome = one_sample(messages);
    if (!outcome) {
      requests += outcome.error().requests;
      last_failure = outcome.error().message;
      continue;
    }
    requests += outcome->requests;
    ++good;
    for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += outcome->distribution.probabilities()[i];
    if (!first) first = std::move(*outcome);
  }
  if (!first) return failure(last_failure, requests);
  for (double& p : sum) p /= good;
  auto averaged = forecast::BinDistribution::from_raw(sum, 1e-6);
  if (!averaged) return failure(averaged.error().message, requests);
  first->distribution = *averaged;
  first->samples = good;
  first->requests = requests;
  first->notes.push_back(fmt::format("{} of {} samples averaged", good, m_settings.samples));
  if (good < m_settings.samples) first->notes.push_back(fmt::format("a sample failed: {}", last_failure));
  return std::move(*first);
}

}  // namespace kforecast::llm
