// SPDX-License-Identifier: Apache-2.0
// Secrets come from the environment and are never printed: not by doctor, config, help or an
// error message, nor in a report whose LLM forecast fell back to the embedded forecaster.

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#include "llm_e2e.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

TEST_CASE("e2e: API keys and tokens never appear in any output") {
  const std::string secret = "sk-kforecast-test-7f3a9c";
  const std::vector<std::string> env{"KFORECAST_API_KEY=" + secret, "OPENAI_API_KEY=" + secret,
                                     "GITHUB_TOKEN=" + secret, "GITLAB_TOKEN=" + secret, "CI_JOB_TOKEN=" + secret};
  FixtureRepo repo;
  repo.write(".kforecast.toml", "[cuda]\ndriver_library = \"libcuda.so.1\"\n");
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"doctor"}, {"config"}, {"--help"}, {"pr"}, {"config", "--bogus"}}) {
    INFO(args.front());
    auto run = run_kforecast(args, repo.path(), env);
    CHECK_THAT(run.out, !Contains(secret));
    CHECK_THAT(run.err, !Contains(secret));
  }
  SECTION("a config that tries to hold a key is rejected without echoing it") {
    repo.write(".kforecast.toml", "[endpoint]\napi_key = \"" + secret + "\"\n");
    auto run = run_kforecast({"config"}, repo.path());
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains("unknown key 'endpoint.api_key'"));
    CHECK_THAT(run.err, !Contains(secret));
  }
}

TEST_CASE("e2e: the API key stays secret when the LLM fails and the embedded forecaster stands in") {
  using kforecast::testing::FakeHttpServer;
  using kforecast::testing::ScriptedResponse;
  FixtureRepo repo;
  two_commits(repo, "[forecast]\nfallback = \"embedded\"\n[endpoint]\nmax_retries = 1\n");
  // Every way a server can hand the key back: in a 500's message, a 401's, a quota refusal's,
  // and in a proxy's HTML page.
  for (const auto& echo : std::vector<std::pair<int, std::string>>{
           {500, std::string(R"({"error":{"message":"upstream crashed for key )") + llm_secret + "\"}}"},
           {401, std::string(R"({"error":{"message":"Incorrect API key provided: )") + llm_secret + "\"}}"},
           {429, std::string(R"({"error":{"message":"quota for )") + llm_secret +
                     R"(","type":"insufficient_quota","code":"insufficient_quota"}})"},
           {502, std::string("<html><body>Bad gateway for Bearer ") + llm_secret + "</body></html>"}}) {
    INFO("HTTP " << echo.first);
    FakeHttpServer server;
    server.set_handler([&](const auto&, std::size_t) {
      auto response = ScriptedResponse::json(echo.first, echo.second);
      response.headers.emplace_back("retry-after-ms", "10");
      return response;
    });
    const auto cache = repo.path() / ".test-cache";
    const auto written = repo.path() / "report.out";
    for (const char* format : {"md", "json", "sarif"}) {
      auto run = run_kforecast(
          {"pr", "--base", "HEAD~1", "--forecaster", "llm", "--format", format, "--output", written.string()},
          repo.path(), llm_env(server, cache));
      CHECK(run.status == 0);
      std::ifstream in(written, std::ios::binary);
      const std::string report{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      CHECK_THAT(report, Contains("fallback") && !Contains(llm_secret));
      CHECK_THAT(run.out + run.err, !Contains(llm_secret));
    }
    CHECK(server.request_count() >= 3);
    for (const auto& request : server.requests())
      CHECK(request.header("authorization") == std::string("Bearer ") + llm_secret);
    CHECK_THAT(files_under(cache), !Contains(llm_secret));
  }
}

// A variable named in security.secret_env (at the base revision, for pr) or endpoint.api_key_env
// is a secret wherever its value would appear: here the head names a kernel after it.
TEST_CASE("e2e: a variable the config names in security.secret_env is redacted from the report") {
  const std::string secret = "deployvalue8c41e2";
  FixtureRepo repo;
  repo.write(".kforecast.toml", "[security]\nsecret_env = [\"DEPLOY_VALUE\"]\n[endpoint]\napi_key_env = \"MY_SERVICE\"\n");
  repo.write("k.cu", "__global__ void base_kernel(float* p) { p[0] = 1.0f; }\n");
  repo.commit("base");
  repo.write("k.cu", "__global__ void base_kernel(float* p) { p[0] = 1.0f; }\n__global__ void " + secret +
                         "(float* p) { p[0] = 2.0f; }\n__global__ void servicevalue5d2b(float* p) { p[0] = 3.0f; }\n");
  repo.commit("head");
  for (const std::string format : {"md", "json", "text"}) {
    INFO(format);
    auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", format}, repo.path(),
                             {"DEPLOY_VALUE=" + secret, "MY_SERVICE=servicevalue5d2b"});
    CHECK(run.status == 0);
    CHECK_THAT(run.out + run.err, !Contains(secret) && !Contains("servicevalue5d2b") && Contains("[redacted]"));
  }
}
