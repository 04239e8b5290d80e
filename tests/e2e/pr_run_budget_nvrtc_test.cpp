// SPDX-License-Identifier: Apache-2.0
// kforecast pr on a change too large for its wall budget (run.budget_seconds): hundreds of
// changed kernels, each needing the compiler for its facts. The run stops each step at the
// deadline, leaves the kernels left unverified with the reason, and writes the report on time;
// its log shows where it is while it works.
#include <chrono>

#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "e2e/e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvrtc(); }

namespace {

// `files` files of `per_file` kernels each, their bodies differing by `factor`.
void write_kernels(const FixtureRepo& repo, int files, int per_file, const std::string& factor) {
  for (int f = 0; f < files; ++f) {
    std::string text;
    for (int k = 0; k < per_file; ++k)
      text += fmt::format(
          "__global__ void k{}_{}(float* y, const float* x, int n) {{\n  int i = blockIdx.x * "
          "blockDim.x + threadIdx.x;\n  if (i < n) y[i] = x[i] * {} + {};\n}}\n",
          f, k, factor, k);
    repo.write(fmt::format("src/f{}.cu", f), text);
  }
}

}  // namespace

TEST_CASE("e2e: a change past the run's wall budget is reported on time, the rest unverified with the reason") {
  FixtureRepo repo;
  write_kernels(repo, 60, 10, "2.0f");
  repo.commit("base");
  write_kernels(repo, 60, 10, "x[i] * 3.0f");
  repo.commit("head");
  // A cache of its own, cold: a warm one (an earlier run of this test) answers every compile at
  // once and the budget is never spent.
  const std::string cache = "XDG_CACHE_HOME=" + (repo.path() / ".git/kf-cache").string();
  const auto started = std::chrono::steady_clock::now();
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--no-bench", "--format", "json"}, repo.path(),
                           {"KFORECAST_RUN_BUDGET_SECONDS=3", "KFORECAST_PROGRESS=1", cache});
  const auto took = std::chrono::steady_clock::now() - started;
  INFO(run.err);
  CHECK(run.status == 0);
  CHECK(took < std::chrono::seconds(90));
  const auto report = nlohmann::json::parse(run.out);
  REQUIRE(report["kernels"].size() == 600);
  std::size_t left = 0;
  for (const auto& kernel : report["kernels"])
    if (kernel["notes"].dump().find("the run's wall budget of 3 s (run.budget_seconds) was spent") != std::string::npos)
      ++left;
  CHECK(left > 0);
  CHECK_THAT(run.err, Contains("kforecast: warning: the run's wall budget of 3 s (run.budget_seconds) was spent"));
  CHECK_THAT(run.err, Contains("kforecast: reading the revisions"));
}
