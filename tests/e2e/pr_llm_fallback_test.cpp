// SPDX-License-Identifier: Apache-2.0
// forecast.fallback: when the LLM endpoint fails for a kernel, "embedded" gives it the embedded
// forecaster's forecast, labelled as a fallback in every report format; "none" (the default)
// leaves it null and unsure.

#include <catch2/catch.hpp>

#include "llm_e2e.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using kforecast::testing::FakeHttpServer;
using kforecast::testing::ScriptedResponse;

namespace {

constexpr std::string_view fallback_config = "[forecast]\nfallback = \"embedded\"\n[endpoint]\nmax_retries = 1\n";

std::vector<std::string> llm_run(std::string format) {
  return {"pr", "--base", "HEAD~1", "--forecaster", "llm", "--format", std::move(format)};
}

// The server's 500 body echoes the key, as a careless proxy might.
ScriptedResponse failing_with_key(const kforecast::testing::RecordedRequest&, std::size_t) {
  auto response = ScriptedResponse::json(
      500, std::string(R"({"error":{"message":"upstream crashed for key )") + llm_secret + "\"}}");
  response.headers.emplace_back("retry-after-ms", "10");
  return response;
}

}  // namespace

TEST_CASE("e2e fallback: 500s after the retries give the embedded forecast, labelled in JSON, Markdown and SARIF") {
  FixtureRepo repo;
  two_commits(repo, std::string(fallback_config));
  FakeHttpServer server;
  server.set_handler(failing_with_key);
  const auto cache = repo.path() / ".test-cache";
  const auto env = llm_env(server, cache);

  auto json = run_kforecast(llm_run("json"), repo.path(), env);
  INFO(json.out << json.err);
  CHECK(json.status == 0);
  CHECK(server.request_count() == 2);  // the request and its one retry, then the fallback
  CHECK_THAT(json.out, Contains("\"forecaster\": \"embedded\"") && Contains("\"model\": \"ordinal logistic") &&
                           Contains("\"fallback\": {\"for\": \"llm\", \"reason\": \"gave up after 2 attempts") &&
                           Contains("HTTP 500: upstream crashed for key [redacted]"));
  CHECK_THAT(json.out, Contains("no LLM forecast (gave up after 2 attempts") &&
                           Contains("the embedded forecaster's forecast stands in (forecast.fallback = "));
  CHECK_THAT(json.out, Contains("1 failed (forecast by the embedded forecaster instead)"));
  // The policy treats it as any embedded forecast: the untrained prior is not trusted.
  CHECK_THAT(json.out, Contains("\"decision\": \"forecast_only\"") && Contains("\"verdict\": \"warn\"") &&
                           Contains("needs a GPU measurement (") && !Contains("\"forecast\": null"));

  auto markdown = run_kforecast(llm_run("md"), repo.path(), env);
  CHECK(markdown.status == 0);
  CHECK_THAT(markdown.out, Contains("| embedded (fallback: llm failed) `ordinal logistic") &&
                               Contains("**fallback** to the embedded forecaster because the llm forecast failed: "
                                        "gave up after 2 attempts"));

  auto sarif = run_kforecast(llm_run("sarif"), repo.path(), env);
  CHECK(sarif.status == 0);
  CHECK_THAT(sarif.out, Contains("\"forecastFallbacks\": [{\"kernel\": \"k\", \"file\": \"k.cu\", \"forecaster\": "
                                 "\"embedded\", \"fallbackFor\": \"llm\", \"reason\": \"gave up after 2 attempts") &&
                            Contains("the embedded forecaster's forecast stands in"));

  for (const auto* run : {&json, &markdown, &sarif}) {
    CHECK_THAT(run->out, !Contains(llm_secret));
    CHECK_THAT(run->err, !Contains(llm_secret));
  }
  CHECK_THAT(files_under(cache), !Contains(llm_secret));
}

TEST_CASE("e2e fallback: the policy trusts a fallback forecast exactly as it would an embedded one") {
  FixtureRepo repo;
  two_commits(repo, std::string(fallback_config) + "[policy]\nmax_p_regression = 1.0\nmin_confidence = 0.0\n");
  FakeHttpServer server;
  server.set_handler(failing_with_key);
  auto run = run_kforecast(llm_run("json"), repo.path(), llm_env(server, repo.path() / ".test-cache"));
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"decision\": \"trusted_forecast\"") && Contains("\"forecaster\": \"embedded\"") &&
                          Contains("\"fallback\": {\"for\": \"llm\""));
  // The same thresholds without the LLM: the embedded forecaster's own forecast, the same decision.
  auto embedded = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path(),
                                llm_env(server, repo.path() / ".test-cache"));
  CHECK_THAT(embedded.out, Contains("\"decision\": \"trusted_forecast\"") && Contains("\"fallback\": null"));
}

TEST_CASE("e2e fallback: insufficient_quota is not retried and falls back at once") {
  FixtureRepo repo;
  two_commits(repo, std::string(fallback_config));
  FakeHttpServer server;
  server.set_handler([](const auto&, std::size_t) {
    return ScriptedResponse::json(
        429,
        R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}})");
  });
  auto run = run_kforecast(llm_run("json"), repo.path(), llm_env(server, repo.path() / ".test-cache"));
  CHECK(run.status == 0);
  CHECK(server.request_count() == 1);
  CHECK_THAT(run.out, Contains("\"fallback\": {\"for\": \"llm\", \"reason\": \"the endpoint's account is out of "
                               "quota (HTTP 429: You exceeded your current quota); not retried\"}") &&
                          Contains("\"forecaster\": \"embedded\""));
}

TEST_CASE("e2e fallback: a request that times out falls back") {
  FixtureRepo repo;
  two_commits(repo, "[forecast]\nfallback = \"embedded\"\n[endpoint]\nmax_retries = 0\ntimeout_seconds = 1\n");
  FakeHttpServer server;
  server.set_handler([](const auto&, std::size_t) {
    auto response = ScriptedResponse::json(200, answer_completion("too late"));
    response.delay = std::chrono::milliseconds(3000);
    return response;
  });
  auto run = run_kforecast(llm_run("json"), repo.path(), llm_env(server, repo.path() / ".test-cache"));
  CHECK(run.status == 0);
  CHECK(server.request_count() == 1);
  CHECK_THAT(run.out, Contains("\"fallback\": {\"for\": \"llm\", \"reason\": \"gave up after 1 attempt "
                               "(endpoint.max_retries = 0); last: timed out") &&
                          !Contains("too late"));
}

TEST_CASE("e2e fallback: with \"none\" a failed forecast stays null and unsure, and an answer needs no fallback") {
  FixtureRepo repo;
  two_commits(repo, std::string(fallback_config));
  FakeHttpServer server;
  server.set_handler(failing_with_key);
  auto env = llm_env(server, repo.path() / ".test-cache");
  env.push_back("KFORECAST_FALLBACK=none");  // the environment overrides the config's "embedded"
  auto none = run_kforecast(llm_run("json"), repo.path(), env);
  CHECK(none.status == 0);
  CHECK_THAT(none.out, Contains("\"forecast\": null") && Contains("treated as unsure") &&
                           !Contains("\"forecaster\": \"embedded\"") && !Contains("stands in"));

  FakeHttpServer answering;
  answering.set_handler([](const auto&, std::size_t) { return ScriptedResponse::json(200, answer_completion("ok")); });
  auto answered = run_kforecast(llm_run("json"), repo.path(), llm_env(answering, repo.path() / ".test-cache"));
  CHECK_THAT(answered.out, Contains("\"forecaster\": \"llm\"") && Contains("\"fallback\": null"));
}

TEST_CASE("e2e fallback: under policy.on_unverified = \"fail\" an unsure kernel fails the gate either way") {
  FixtureRepo repo;
  two_commits(repo, std::string(fallback_config) + "[policy]\non_unverified = \"fail\"\n");
  FakeHttpServer server;
  server.set_handler(failing_with_key);
  auto env = llm_env(server, repo.path() / ".test-cache");
  // The fallback's forecast (the untrained prior) is not trusted: the kernel needs a measurement.
  auto fallback = run_kforecast(llm_run("json"), repo.path(), env);
  CHECK(fallback.status == 1);
  CHECK_THAT(fallback.out, Contains("\"fallback\": {\"for\": \"llm\"") && Contains("\"verdict\": \"fail\""));
  // No fallback: no forecast at all, the same failure.
  env.push_back("KFORECAST_FALLBACK=none");
  auto none = run_kforecast(llm_run("json"), repo.path(), env);
  CHECK(none.status == 1);
  CHECK_THAT(none.out, Contains("\"forecast\": null") && Contains("needs a GPU measurement (no forecast)"));
}
