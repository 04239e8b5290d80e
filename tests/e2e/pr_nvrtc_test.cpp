// SPDX-License-Identifier: Apache-2.0
// `kforecast pr` with NVRTC: the architecture the machine code is compiled for. Skipped (exit 77)
// where NVRTC is not installed; pr_command_test.cpp holds what does not depend on it.
#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvrtc(); }

TEST_CASE("e2e: pr takes the local GPU's architecture when cuda.arch is auto") {
  FixtureRepo repo;
  commit_one_kernel_change(repo);
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path());
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"target sm_"));  // the local GPU's, or sm_90 where none is visible
}

TEST_CASE("e2e: with NVRTC, pr compiles for the base revision's cuda.arch, not the PR's") {
  FixtureRepo repo;
  repo.write(".kforecast.toml", "[cuda]\narch = \"sm_80\"\n");
  commit_one_kernel_change(repo);
  repo.write(".kforecast.toml", "[cuda]\narch = \"sm_not_a_gpu\"\n");
  repo.commit("the PR edits the config");
  auto run = run_kforecast({"pr", "--base", "HEAD~2", "--format", "json"}, repo.path());
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("target sm_80 (cuda.arch)"));
}
