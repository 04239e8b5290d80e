// SPDX-License-Identifier: Apache-2.0
// `kforecast pr --forecaster llm` where NVRTC is not installed in its default places: the prompt says
// the compiler facts are not available. Skipped (exit 77) where NVRTC is installed;
// pr_llm_nvrtc_test.cpp is the other side.
#include <catch2/catch.hpp>

#include "llm_e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using kforecast::testing::FakeHttpServer;
using kforecast::testing::ScriptedResponse;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::installed_nvrtc(); }

TEST_CASE("e2e: without NVRTC, the prompt says compiler facts are not available") {
  FixtureRepo repo;
  two_commits(repo);
  FakeHttpServer server;
  server.set_handler([](const auto&, std::size_t) { return ScriptedResponse::json(200, answer_completion("ok")); });
  auto env = llm_env(server, repo.path() / ".test-cache");
  env.erase(env.begin());  // NVRTC from its default places, where it is installed
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json", "--forecaster", "llm"}, repo.path(), env);
  CHECK(run.status == 0);
  REQUIRE(server.request_count() == 1);
  const std::string body = server.requests().at(0).body;
  CHECK_THAT(body, Contains("BEGIN REFERENCE COMPILER FACTS\\nnot available"));  // facts are optional
}
