// SPDX-License-Identifier: Apache-2.0
// Never silent: a forecaster that failed is a warning on standard error and in the
// report's first line, in every format; a gate that passed with kernels it could not judge says
// so in its summary line; a stalled endpoint ends within its stall limit, loudly.

#include <chrono>

#include <catch2/catch.hpp>

#include "llm_e2e.hpp"
#include "pr_bench_fixture.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using kforecast::testing::FakeHttpServer;
using kforecast::testing::ScriptedResponse;

namespace {

std::vector<std::string> llm_run(std::string format) {
  return {"pr", "--base", "HEAD~1", "--forecaster", "llm", "--format", std::move(format)};
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

struct DeadEndpoint {
  const char* name;
  int status;
  const char* body;
};

}  // namespace

TEST_CASE("e2e never silent: a dead LLM endpoint is a warning on stderr and in the report's first line") {
  const DeadEndpoint dead = GENERATE(
      DeadEndpoint{"401", 401, R"({"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}})"},
      DeadEndpoint{"permanent 429", 429,
                   R"({"error":{"message":"You exceeded your current quota","type":"insufficient_quota",)"
                   R"("code":"insufficient_quota"}})"},
      DeadEndpoint{"500", 500, R"({"error":{"message":"upstream crashed"}})"});
  const std::string fallback = GENERATE(std::string("none"), std::string("embedded"));
  INFO(dead.name << ", forecast.fallback = " << fallback);
  FixtureRepo repo;
  two_commits(repo, "[forecast]\nfallback = \"" + fallback + "\"\n[endpoint]\nmax_retries = 1\n");
  FakeHttpServer server;
  server.set_handler([&](const auto&, std::size_t) {
    auto response = ScriptedResponse::json(dead.status, dead.body);
    response.headers.emplace_back("retry-after-ms", "10");
    return response;
  });
  const auto env = llm_env(server, repo.path() / ".test-cache");

  auto markdown = run_kforecast(llm_run("md"), repo.path(), env);
  INFO(markdown.out << markdown.err);
  CHECK(markdown.status == 0);  // policy.on_unverified = warn: a warning, not a failure
  CHECK_THAT(markdown.err, Contains("kforecast: warning: the llm forecaster failed for 1 of 1 kernel"));
  CHECK_THAT(first_line(markdown.out), StartsWith("## kforecast: pass, but 1 kernel could not be judged") &&
                                           Contains("the llm forecaster failed for 1 of 1 kernel"));
  CHECK_THAT(first_line(markdown.out), !Contains("## kforecast: pass\n"));

  auto json = run_kforecast(llm_run("json"), repo.path(), env);
  CHECK_THAT(json.out, Contains("\"verdict\": \"pass\",\n  \"summary\": \"pass, but 1 kernel could not be judged") &&
                           Contains("\"unjudged\": 1") &&
                           Contains("\"warnings\": [\n    \"the llm forecaster failed for 1 of 1 kernel"));
  CHECK_THAT(json.err, Contains("kforecast: warning: the llm forecaster failed"));

  auto sarif = run_kforecast(llm_run("sarif"), repo.path(), env);
  CHECK_THAT(sarif.out, Contains("\"summary\": \"pass, but 1 kernel could not be judged") &&
                            Contains("\"toolExecutionNotifications\": [{\"level\": \"warning\", \"message\": "
                                     "{\"text\": \"the llm forecaster failed for 1 of 1 kernel"));
  for (const auto* run : {&markdown, &json, &sarif}) CHECK_THAT(run->err + run->out, !Contains(llm_secret));
}

TEST_CASE("e2e never silent: a stalled endpoint fails within endpoint.stall_seconds, with a warning") {
  FixtureRepo repo;
  two_commits(repo, "[endpoint]\nmax_retries = 1\nstall_seconds = 1\n");
  FakeHttpServer server;
  server.set_handler([](const auto&, std::size_t) {
    auto response = ScriptedResponse::json(200, answer_completion("never arrives"));
    response.action = ScriptedResponse::Action::stall;
    response.truncate_at = 10;
    response.stall_for = std::chrono::milliseconds(30000);
    return response;
  });
  const auto start = std::chrono::steady_clock::now();
  auto run = run_kforecast(llm_run("md"), repo.path(), llm_env(server, repo.path() / ".test-cache"));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  INFO(run.out << run.err);
  CHECK(elapsed < std::chrono::seconds(20));
  CHECK(run.status == 0);
  // Said while it is retried, and again when it gives up.
  CHECK_THAT(run.err, Contains("kforecast: warning: the LLM endpoint is failing: attempt 1 of 2 failed (stalled"));
  CHECK_THAT(run.err, Contains("kforecast: warning: the llm forecaster failed for 1 of 1 kernel") &&
                          Contains("gave up after 2 attempts"));
  CHECK_THAT(first_line(run.out), StartsWith("## kforecast: pass, but 1 kernel could not be judged"));
}

TEST_CASE("e2e never silent: without a GPU the summary line says how many kernels could not be judged") {
  const std::vector<std::string> no_gpu{"KFORECAST_CUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1"};
  SECTION("warn: passed, but not judged") {
    FixtureRepo repo;
    commit_slower_kernel(repo);
    auto run = run_kforecast({"pr", "--base", "HEAD~1"}, repo.path(), no_gpu);
    INFO(run.out << run.err);
    CHECK(run.status == 0);
    CHECK(first_line(run.out) == "## kforecast: pass, but 2 kernels could not be judged");
    CHECK_THAT(run.err, Contains("kforecast: warning: 2 kernels could not be judged"));
    auto json = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path(), no_gpu);
    CHECK_THAT(json.out,
               Contains("\"summary\": \"pass, but 2 kernels could not be judged\"") && Contains("\"unjudged\": 2"));
  }
  SECTION("fail: policy.on_unverified = \"fail\" makes them fail the gate") {
    FixtureRepo repo;
    commit_slower_kernel(repo, "on_unverified = \"fail\"\n");
    auto run = run_kforecast({"pr", "--base", "HEAD~1"}, repo.path(), no_gpu);
    CHECK(run.status == 1);
    CHECK(first_line(run.out) == "## kforecast: fail: 2 kernels could not be judged");
  }
  SECTION("every kernel judged: a plain pass, nothing on stderr") {
    FixtureRepo repo;
    repo.write("k.cu", "__global__ void k(float* a) { a[0] = 1.0f; }\n");
    repo.commit("base");
    repo.write("k.cu", "__global__ void k(float* a) { a[0] = 1.0f; }\n__global__ void fresh(float* a) { a[1] = 2; }\n");
    repo.commit("head: a new kernel");
    auto run = run_kforecast({"pr", "--base", "HEAD~1"}, repo.path(), no_gpu);
    CHECK(run.status == 0);
    CHECK(first_line(run.out) == "## kforecast: pass");
    CHECK_THAT(run.err, !Contains("warning"));
  }
}
