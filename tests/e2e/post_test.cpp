// SPDX-License-Identifier: Apache-2.0
// `kforecast pr --post` as a CI job runs it: the real binary, a fixture repository, a GitHub
// event file, and a fake GitHub API on loopback.

#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "support/fake_forge.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using kforecast::testing::FakeForge;
using kforecast::testing::TempDir;

namespace {

const std::string token = "ghs_e2e_token_never_shown";

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

struct PullRequestJob {
  FixtureRepo repo;
  TempDir runner;  // the runner's files: event, summary, outputs
  FakeForge github{FakeForge::Kind::github, token, "", "octo/kernels", "12"};
  std::string base, head;

  PullRequestJob() {
    repo.write("k.cu", "__global__ void k(float* a) { a[0] = 1.0f; }\n");
    base = repo.commit("base");
    repo.write("k.cu", "__global__ void k(float* a) { a[0] = 2.0f; }\n");
    head = repo.commit("head");
    std::ofstream(runner.path() / "event.json") << R"({"number": 12, "pull_request": {"number": 12, "base": {"sha": ")"
                                                << base << R"("}, "head": {"sha": ")" << head << R"("}}})";
  }
  Run run() {
    return run_kforecast(
        {"pr", "--post"}, repo.path(),
        {"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request",
         "GITHUB_EVENT_PATH=" + (runner.path() / "event.json").string(), "GITHUB_REPOSITORY=octo/kernels",
         "GITHUB_API_URL=" + github.api_url(), "GITHUB_TOKEN=" + token, "GITHUB_SERVER_URL=https://github.example",
         "GITHUB_RUN_ID=99", "GITHUB_STEP_SUMMARY=" + (runner.path() / "summary.md").string(),
         "GITHUB_OUTPUT=" + (runner.path() / "output.txt").string(),
         "KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"});
  }
};

}  // namespace

TEST_CASE("e2e: pr --post comments on the pull request once and updates it on the next run") {
  PullRequestJob job;
  auto first = job.run();
  INFO(first.err);
  CHECK(first.status == 0);
  CHECK_THAT(first.err, Contains("created the report comment"));
  auto second = job.run();
  CHECK(second.status == 0);
  CHECK_THAT(second.err, Contains("updated the report comment"));

  const auto comments = job.github.comments();
  REQUIRE(comments.size() == 1);
  CHECK(comments[0].body.starts_with("<!-- kforecast:report -->\n## kforecast:"));
  CHECK_THAT(comments[0].body, Contains("| `k` | `k.cu:1` | modified |"));
  // The step summary holds the report of each run; the outputs say the verdict and the GPU need.
  const std::string summary = read_file(job.runner.path() / "summary.md");
  CHECK_THAT(summary, Contains("| `k` | `k.cu:1` | modified |"));
  CHECK_THAT(read_file(job.runner.path() / "output.txt"), Contains("verdict=pass\nneeds_gpu=true\n"));
  // The token went to the API in a header, and nowhere else.
  for (const auto& text : {first.out, first.err, second.out, second.err, summary, comments[0].body})
    CHECK_THAT(text, !Contains(token));
}

TEST_CASE("e2e: pr --post outside a pull request, or without a token, says what is missing") {
  PullRequestJob job;
  auto local = run_kforecast({"pr", "--base", "HEAD~1", "--post"}, job.repo.path(),
                             {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"});
  CHECK(local.status == 2);
  CHECK_THAT(local.err, Contains("--post works in GitHub Actions"));
  CHECK(job.github.server().request_count() == 0);
}
