// SPDX-License-Identifier: Apache-2.0
// The launch rules with NVRTC: occupancy from the kernel's real registers. Skipped (exit 77) where
// NVRTC is not installed; lint_launch_test.cpp holds the rules without it.
#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "launch_kernel.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvrtc(); }

TEST_CASE("e2e: with NVRTC the occupancy uses the kernel's real registers") {
  FixtureRepo repo;
  repo.write("k.cu", kernel(32, 65536));
  auto run = run_kforecast({"lint", "k.cu", "--no-forecast", "--format", "json"}, repo.path(),
                           {"XDG_CACHE_HOME=" + (repo.path() / "cache").string()});
  INFO(run.out << run.err);
  CHECK_THAT(run.out, Contains("compiler facts for sm_90 from NVRTC"));
  CHECK_THAT(run.out, Contains("registers per thread and 0 bytes of static shared memory from NVRTC (sm_90)"));
}
