// SPDX-License-Identifier: Apache-2.0
// Secrets come from the environment and are never printed: not by doctor, config, help or an
// error message.

#include <catch2/catch.hpp>

#include "e2e.hpp"

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
