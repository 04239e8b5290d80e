// SPDX-License-Identifier: Apache-2.0
// `kforecast check --bench` on a GPU: the work tree's `settle` runs its loop 8 times, so the
// measurement is a regression and check exits 1 with the measured interval in its output.
// Skipped (exit 77) without a GPU and NVRTC. On a GPU machine with a binary built elsewhere, set
// KF_TEST_BINARY to it.
#include <cstdlib>

#include <catch2/catch.hpp>

#include "base/environment.hpp"
#include "base/subprocess.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/nvrtc.hpp"
#include "pr_bench_fixture.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() {
  if (auto missing = missing_gpu()) return missing;
  return missing_nvrtc();
}

TEST_CASE("e2e: check --bench measures an 8x slower kernel as a regression, exit 1") {
  testing::FixtureRepo repo;
  repo.write("src/settle.cu", e2e::settle_source(false));
  repo.commit("base");
  repo.write("src/settle.cu", e2e::settle_source(true));
  const char* value = std::getenv("KF_TEST_BINARY");
  const std::string binary = value != nullptr && *value != '\0' ? value : KF_BINARY;
  auto run = run_process({binary, "check", "src/settle.cu:settle", "--bench"},
                         {.working_directory = repo.path().string(), .timeout = std::chrono::seconds(300)});
  REQUIRE(run.has_value());
  INFO(run->out << run->err);
  CHECK(run->exit_status == 1);
  CHECK_THAT(run->out, Contains("kforecast check: fail"));
  CHECK_THAT(run->out, Contains("decision      measured"));
  CHECK_THAT(run->out, Contains(": regression"));
  CHECK_THAT(run->out, Contains("measured regression"));
}
