// SPDX-License-Identifier: Apache-2.0
// The client's failure handling over real sockets: what is retried, how long it waits, what is
// never retried, the deadline, and the stall detector.

#include <catch2/catch.hpp>

#include "llm/client_harness.hpp"

using namespace kforecast::llm;
using namespace kforecast::testing;
using std::chrono::milliseconds;

namespace {

ScriptedResponse with_headers(ScriptedResponse response, std::vector<std::pair<std::string, std::string>> headers) {
  for (auto& header : headers) response.headers.push_back(std::move(header));
  return response;
}

}  // namespace

TEST_CASE("llm client: 429 with Retry-After waits what the server asks, then succeeds") {
  ClientHarness harness;
  harness.server.enqueue(with_headers(fixture_response(429, "error_openai_rate_limit.json"), {{"Retry-After", "2"}}));
  harness.server.enqueue(ok(content_completion(good_answer())));
  auto result = harness.client()->forecast(test_prompt());
  REQUIRE(result);
  CHECK(harness.server.request_count() == 2);
  CHECK(result->requests == 2);
  CHECK(harness.sleeps == std::vector<milliseconds>{milliseconds(2000)});
}

TEST_CASE("llm client: retry-after-ms is preferred, and a huge Retry-After is capped") {
  ClientHarness harness;
  harness.server.enqueue(with_headers(fixture_response(429, "error_openai_rate_limit.json"),
                                      {{"retry-after-ms", "150"}, {"Retry-After", "9"}}));
  harness.server.enqueue(
      with_headers(fixture_response(429, "error_openai_rate_limit.json"), {{"Retry-After", "100000"}}));
  harness.server.enqueue(ok(content_completion(good_answer())));
  auto settings = harness.settings();
  settings.backoff.server_cap = milliseconds(5000);
  auto result = harness.client(settings, std::chrono::seconds(600))->forecast(test_prompt());
  REQUIRE(result);
  CHECK(harness.sleeps == std::vector<milliseconds>{milliseconds(150), milliseconds(5000)});
}

TEST_CASE("llm client: 500 then success: one jittered backoff") {
  ClientHarness harness;
  harness.server.enqueue(ScriptedResponse::json(500, R"({"error":{"message":"CUDA out of memory","code":500}})"));
  harness.server.enqueue(ok(content_completion(good_answer())));
  auto result = harness.client()->forecast(test_prompt());
  REQUIRE(result);
  CHECK(harness.server.request_count() == 2);
  REQUIRE(harness.sleeps.size() == 1);
  CHECK((harness.sleeps[0] >= milliseconds(5) && harness.sleeps[0] <= milliseconds(10)));
}

TEST_CASE("llm client: 408, 409, 502 (HTML from a proxy), 503 are retried") {
  for (int status : {408, 409, 502, 503}) {
    INFO(status);
    ClientHarness harness;
    harness.server.enqueue(
        status == 502 ? ScriptedResponse{502, {{"Content-Type", "text/html"}}, endpoint_fixture("error_proxy_502.html")}
                      : ScriptedResponse::json(status, R"({"error":"busy"})"));
    harness.server.enqueue(ok(content_completion(good_answer())));
    REQUIRE(harness.client()->forecast(test_prompt()));
    CHECK(harness.server.request_count() == 2);
  }
}

TEST_CASE("llm client: retries stop at endpoint.max_retries, and the failure says why") {
  ClientHarness harness;
  harness.server.set_handler([](const RecordedRequest&, std::size_t) {
    return ScriptedResponse{503, {{"Content-Type", "text/html"}}, endpoint_fixture("error_proxy_502.html")};
  });
  auto result = harness.client()->forecast(test_prompt());
  REQUIRE_FALSE(result);
  CHECK(harness.server.request_count() == 4);  // 1 + max_retries 3
  CHECK(result.error().requests == 4);
  CHECK(harness.sleeps.size() == 3);
  CHECK_THAT(result.error().message,
             Catch::Contains("gave up after 4 attempts") && Catch::Contains("HTTP 503: 502 Bad Gateway"));
}

TEST_CASE("llm client: insufficient_quota is never retried") {
  ClientHarness harness;
  harness.server.enqueue(
      with_headers(fixture_response(429, "error_openai_insufficient_quota.json"), {{"Retry-After", "1"}}));
  auto result = harness.client()->forecast(test_prompt());
  REQUIRE_FALSE(result);
  CHECK(harness.server.request_count() == 1);
  CHECK(harness.sleeps.empty());
  CHECK_THAT(result.error().message, Catch::Contains("out of quota") && Catch::Contains("not retried"));
}

TEST_CASE("llm client: 401 and 404 fail at once and name the fix") {
  ClientHarness harness;
  harness.server.enqueue(fixture_response(401, "error_openai_invalid_key.json"));
  harness.server.enqueue(ScriptedResponse::json(404, R"({"detail":"Not Found"})"));
  auto settings = harness.settings();
  settings.api_key_variable = "OPENAI_API_KEY";
  auto client = harness.client(settings);
  auto unauthorised = client->forecast(test_prompt());
  REQUIRE_FALSE(unauthorised);
  CHECK_THAT(unauthorised.error().message, Catch::Contains("$OPENAI_API_KEY") && Catch::Contains("endpoint.auth"));
  auto missing = client->forecast(test_prompt());
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error().message, Catch::Contains("endpoint.url") && Catch::Contains("HTTP 404: Not Found"));
  CHECK(harness.server.request_count() == 2);
}

TEST_CASE("llm client: a 200 that is not a completion is retried") {
  ClientHarness harness;
  harness.server.enqueue(ok("{\"choices\": [ {\"message\": "));                     // invalid JSON
  harness.server.enqueue(ok(R"({"error":{"message":"upstream model crashed"}})"));  // error inside a 200
  harness.server.enqueue(ScriptedResponse{200, {{"Content-Type", "text/html"}}, "<html>captive portal</html>"});
  harness.server.enqueue(ok(content_completion(good_answer())));
  REQUIRE(harness.client()->forecast(test_prompt()));
  CHECK(harness.server.request_count() == 4);
}

TEST_CASE("llm client: a dropped connection and a truncated body are retried") {
  ClientHarness harness;
  ScriptedResponse dropped;
  dropped.action = ScriptedResponse::Action::drop;
  harness.server.enqueue(dropped);
  ScriptedResponse truncated = ok(content_completion(good_answer()));
  truncated.action = ScriptedResponse::Action::truncate;
  truncated.truncate_at = 40;
  harness.server.enqueue(truncated);
  harness.server.enqueue(ok(content_completion(good_answer())));
  auto result = harness.client()->forecast(test_prompt());
  REQUIRE(result);
  CHECK(harness.server.request_count() == 3);
  CHECK(harness.sleeps.size() == 2);
}

TEST_CASE("llm client: a stalled connection fails by the stall limit, not the CI job's") {
  ClientHarness harness(std::chrono::seconds(1));
  ScriptedResponse stalled = ok(content_completion(good_answer()));
  stalled.action = ScriptedResponse::Action::stall;
  stalled.truncate_at = 10;
  stalled.stall_for = std::chrono::seconds(30);
  harness.server.enqueue(stalled);
  auto settings = harness.settings();
  settings.max_retries = 0;
  settings.request_timeout = std::chrono::seconds(20);
  const auto started = std::chrono::steady_clock::now();
  auto result = harness.client(settings)->forecast(test_prompt());
  const auto elapsed = std::chrono::steady_clock::now() - started;
  REQUIRE_FALSE(result);
  // libcurl averages the transfer speed over a window of about 5 s, so a stall is seen after
  // the stall limit plus that window: 1 + 5 s here, far short of the 20 s request timeout.
  CHECK(elapsed < std::chrono::seconds(10));
  CHECK_THAT(result.error().message, Catch::Contains("stalled"));
}

TEST_CASE("llm client: the per-request timeout") {
  ClientHarness harness;
  ScriptedResponse slow = ok(content_completion(good_answer()));
  slow.delay = std::chrono::seconds(5);
  harness.server.enqueue(slow);
  auto settings = harness.settings();
  settings.max_retries = 0;
  settings.request_timeout = milliseconds(300);
  const auto started = std::chrono::steady_clock::now();
  auto result = harness.client(settings)->forecast(test_prompt());
  REQUIRE_FALSE(result);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(3));
  CHECK_THAT(result.error().message, Catch::Contains("timed out"));
}

TEST_CASE("llm client: the overall deadline bounds requests and waits") {
  ClientHarness harness;
  auto past = harness.client(harness.settings(), std::chrono::seconds(0))->forecast(test_prompt());
  REQUIRE_FALSE(past);
  CHECK(harness.server.request_count() == 0);
  CHECK_THAT(past.error().message, Catch::Contains("endpoint.deadline_seconds"));

  harness.server.enqueue(with_headers(fixture_response(429, "error_openai_rate_limit.json"), {{"Retry-After", "30"}}));
  auto settings = harness.settings();
  settings.backoff.server_cap = std::chrono::seconds(60);
  auto too_long = harness.client(settings, std::chrono::seconds(10))->forecast(test_prompt());
  REQUIRE_FALSE(too_long);
  CHECK(harness.server.request_count() == 1);
  CHECK(harness.sleeps.empty());
  CHECK_THAT(too_long.error().message, Catch::Contains("would pass before the next retry") && Catch::Contains("429"));
}

TEST_CASE("llm client: a refused connection is retried, then fails") {
  ClientHarness harness;
  auto settings = harness.settings();
  {
    FakeHttpServer closed;  // a port that was free a moment ago
    settings.url = closed.base_url() + "/v1";
  }
  auto result = harness.client(settings)->forecast(test_prompt());
  REQUIRE_FALSE(result);
  CHECK(result.error().requests == 4);
  CHECK_THAT(result.error().message, Catch::Contains("connection failed"));
}

TEST_CASE("llm client: each retry is announced before its wait, with what failed, the key redacted") {
  ClientHarness harness;
  auto settings = harness.settings();
  settings.api_key = "sk-retry-SECRET-41";
  harness.server.enqueue(
      ScriptedResponse::json(500, R"({"error":{"message":"crashed serving key sk-retry-SECRET-41"}})"));
  harness.server.enqueue(with_headers(fixture_response(429, "error_openai_rate_limit.json"), {{"Retry-After", "2"}}));
  harness.server.enqueue(ok(content_completion(good_answer())));
  auto client = harness.client(settings);
  std::vector<std::string> notices;
  client->on_retry([&](std::string_view notice) { notices.emplace_back(notice); });
  auto result = client->forecast(test_prompt());
  REQUIRE(result);
  REQUIRE(notices.size() == 2);
  CHECK_THAT(notices[0], Catch::Matchers::StartsWith("attempt 1 of 4 failed (HTTP 500: crashed serving key "
                                                     "[redacted]); retrying in 0."));
  CHECK(notices[1].starts_with("attempt 2 of 4 failed (HTTP 429: "));
  CHECK(notices[1].ends_with("); retrying in 2.0 s"));
}

TEST_CASE("llm client: an endpoint unreachable after the retries is not asked again in the run") {
  ClientHarness harness;
  auto settings = harness.settings();
  settings.max_retries = 1;
  SECTION("connection failures: the breaker opens, later kernels fail at once and say why") {
    harness.server.set_handler([](const auto&, std::size_t) {
      ScriptedResponse dropped;
      dropped.action = ScriptedResponse::Action::drop;
      return dropped;
    });
    auto client = harness.client(settings);
    auto first = client->forecast(test_prompt());
    REQUIRE_FALSE(first);
    CHECK(harness.server.request_count() == 2);
    auto second = client->forecast(test_prompt());
    REQUIRE_FALSE(second);
    CHECK(harness.server.request_count() == 2);  // nothing sent
    CHECK(second.error().requests == 0);
    CHECK_THAT(second.error().message,
               Catch::Contains("not sent: the endpoint could not be reached for an earlier kernel of this run") &&
                   Catch::Contains("gave up after 2 attempts"));
  }
  SECTION("HTTP errors may be one request's: later kernels are still sent") {
    harness.server.set_handler(
        [](const auto&, std::size_t) { return ScriptedResponse::json(500, R"({"error":{"message":"oom"}})"); });
    auto client = harness.client(settings);
    REQUIRE_FALSE(client->forecast(test_prompt()));
    REQUIRE_FALSE(client->forecast(test_prompt()));
    CHECK(harness.server.request_count() == 4);
  }
}

TEST_CASE("llm client: a key of a few characters garbles no message") {
  // Found with a key of "x": "endpoint.ma[redacted]_retries". Such a key is no secret worth it.
  ClientHarness harness;
  auto settings = harness.settings();
  settings.api_key = "x";
  auto client = harness.client(settings);
  CHECK(client->redact("raise endpoint.max_retries") == "raise endpoint.max_retries");
  settings.api_key = "sk-long-enough-key";
  CHECK(harness.client(settings)->redact("key sk-long-enough-key") == "key [redacted]");
}
