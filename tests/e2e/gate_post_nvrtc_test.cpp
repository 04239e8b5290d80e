// SPDX-License-Identifier: Apache-2.0
// `kforecast pr --post` with NVRTC, as a CI job runs it (gate_job.hpp): a kernel whose machine
// code did not change passes for free, and a head that no longer compiles fails the gate; each
// run twice, leaving one comment. The pull request is a member's, compiled whether or not this
// machine can sandbox a fork's (tests/e2e/sandbox_test.cpp). Skipped (exit 77) where NVRTC is not
// installed.
#include <catch2/catch.hpp>

#include "base/environment.hpp"
#include "cuda/nvrtc.hpp"
#include "gate_job.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;
using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return missing_nvrtc(); }

namespace {

void commit_pair(FixtureRepo& repo, const std::string& head_body) {
  repo.write(".kforecast.toml", "[cuda]\narch = \"sm_90\"\n");
  repo.write("k.cu", "__global__ void k(float* a) { a[threadIdx.x] = 2.0f * a[threadIdx.x]; }\n");
  repo.commit("base");
  repo.write("k.cu", "__global__ void k(float* a) { " + head_body + " }\n");
  repo.commit("head");
}

}  // namespace

TEST_CASE("e2e gate: identical machine code passes for free, and the comment says so") {
  // The same arithmetic spelled differently: the compiler erases the difference.
  PullRequestJob job([](FixtureRepo& repo) { commit_pair(repo, "a[threadIdx.x] = a[threadIdx.x] * (1.0f + 1.0f);"); });
  job.name_author(PullRequestJob::Author::member);
  auto first = job.run();
  INFO(first.out << first.err);
  CHECK(first.status == 0);
  auto second = job.run();
  job.check_one_comment_updated(first, second);
  CHECK(job.comment().starts_with("<!-- kforecast:report -->\n## kforecast: pass"));
  CHECK_THAT(job.comment(), Contains("identical code"));
  CHECK_THAT(job.outputs(), Contains("verdict=pass\nneeds_gpu=false\n"));
}

TEST_CASE("e2e gate: a head that no longer compiles fails the gate") {
  PullRequestJob job([](FixtureRepo& repo) { commit_pair(repo, "a[threadIdx.x] = undeclared_name;"); });
  job.name_author(PullRequestJob::Author::member);
  auto first = job.run();
  INFO(first.out << first.err);
  CHECK(first.status == 1);
  auto second = job.run();
  job.check_one_comment_updated(first, second);
  CHECK(job.comment().starts_with("<!-- kforecast:report -->\n## kforecast: fail"));
  CHECK_THAT(job.comment(), Contains("compile"));
  CHECK_THAT(job.outputs(), Contains("verdict=fail\n"));
}
