// SPDX-License-Identifier: Apache-2.0
// `kforecast pr --post` as a CI job runs it: the real binary, a fixture repository, a GitHub
// event file, and a fake GitHub API on loopback. Each gate outcome is run twice: one comment,
// created and then updated, with the verdict and the exit code the outcome calls for. (With
// NVRTC: gate_post_nvrtc_test.cpp; on a GPU: pr_bench_gpu_test.cpp.)

#include <catch2/catch.hpp>

#include "gate_job.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

namespace {

// One kernel whose constant changed: a real change, forecast and (here, with no GPU) unverified.
void constant_changed(FixtureRepo& repo, const std::string& config = "") {
  if (!config.empty()) repo.write(".kforecast.toml", config);
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 1.0f; }\n");
  repo.commit("base");
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 2.0f; }\n");
  repo.commit("head");
}

const std::vector<std::string> no_nvrtc{"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"};

}  // namespace

TEST_CASE("e2e: pr --post comments on the pull request once and updates it on the next run") {
  PullRequestJob job([](FixtureRepo& repo) { constant_changed(repo); });
  auto first = job.run({}, no_nvrtc);
  INFO(first.err);
  CHECK(first.status == 0);
  auto second = job.run({}, no_nvrtc);
  job.check_one_comment_updated(first, second);
  CHECK_THAT(job.comment(), Contains("| `k` | `k.cu:1` | modified |"));
  // The step summary holds the report of each run; the outputs say the verdict and the GPU need.
  CHECK_THAT(job.summary(), Contains("| `k` | `k.cu:1` | modified |"));
  CHECK_THAT(job.outputs(), Contains("verdict=pass\nneeds_gpu=true\n"));
}

TEST_CASE("e2e gate: unverified risk in strict mode fails the gate, in the comment and the exit code") {
  PullRequestJob job([](FixtureRepo& repo) { constant_changed(repo, "[policy]\non_unverified = \"fail\"\n"); });
  auto first = job.run({}, no_nvrtc);
  INFO(first.err);
  CHECK(first.status == 1);
  auto second = job.run({}, no_nvrtc);
  job.check_one_comment_updated(first, second);
  CHECK(job.comment().starts_with("<!-- kforecast:report -->\n## kforecast: fail"));
  CHECK_THAT(job.comment(), Contains("on_unverified"));
  CHECK_THAT(job.outputs(), Contains("verdict=fail\n"));
}

TEST_CASE("e2e gate: an LLM endpoint that is down is never a pass") {
  // Port 9 (discard) on loopback: nothing listens, so every request is refused at once.
  const std::string config =
      "[forecast]\nforecaster = \"llm\"\n[endpoint]\nurl = \"http://127.0.0.1:9/v1\"\nmodel = \"m\"\n"
      "max_retries = 0\ncache = false\n[policy]\non_unverified = \"fail\"\n";
  PullRequestJob job([&](FixtureRepo& repo) { constant_changed(repo, config); });
  const std::vector<std::string> env{"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so",
                                     "KFORECAST_API_KEY=sk-e2e-secret-key"};
  auto first = job.run({}, env);
  INFO(first.out << first.err);
  CHECK(first.status == 1);
  auto second = job.run({}, env);
  job.check_one_comment_updated(first, second);
  CHECK(job.comment().starts_with("<!-- kforecast:report -->\n## kforecast: fail"));
  CHECK_THAT(job.outputs(), Contains("verdict=fail\n"));
  for (const auto& text : {first.out, first.err, job.comment(), job.summary()})
    CHECK(text.find("sk-e2e-secret-key") == std::string::npos);
}

TEST_CASE("e2e: pr --post outside a pull request, or without a token, says what is missing") {
  PullRequestJob job([](FixtureRepo& repo) { constant_changed(repo); });
  auto local = run_kforecast({"pr", "--base", "HEAD~1", "--post"}, job.repo.path(), no_nvrtc);
  CHECK(local.status == 2);
  CHECK_THAT(local.err, Contains("--post works in GitHub Actions"));
  CHECK(job.github.server().request_count() == 0);
}
