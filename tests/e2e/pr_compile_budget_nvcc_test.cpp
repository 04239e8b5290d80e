// SPDX-License-Identifier: Apache-2.0
// kforecast pr with nvcc on a head whose unit takes minutes to compile (thousands of device
// functions): the compile budget stops the compile in flight, the kernel is forecast (never failed
// as not compiling), and the run ends soon after the budget, not at the per-compile limit.
#include <chrono>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "e2e/e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvcc(); }

namespace {

std::string slow_unit(const std::string& factor) {
  std::string text;
  constexpr int functions = 6000;
  for (int i = 0; i < functions; ++i)
    text += fmt::format("__device__ __noinline__ float f{0}(float x) {{ return x * {0}.5f + sinf(x); }}\n", i);
  text += "__global__ void slow(float* p) {\n  float s = " + factor + ";\n";
  for (int i = 0; i < functions; ++i) text += fmt::format("  s += f{}(p[{}]);\n", i, i % 64);
  return text + "  p[0] = s;\n}\n";
}

}  // namespace

TEST_CASE("e2e nvcc: the compile budget stops a compile in flight, and the kernel is forecast, not failed") {
  FixtureRepo repo;
  kforecast::testing::TempDir cache;  // no answer from an earlier run's unit cache
  repo.write(".kforecast.toml", "[compile]\nbudget_seconds = 3\n");
  repo.write("src/slow.cu", slow_unit("0"));
  repo.commit("base");
  repo.write("src/slow.cu", slow_unit("1"));
  repo.commit("head");
  const auto started = std::chrono::steady_clock::now();
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--no-bench", "--format", "json"}, repo.path(),
                           {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so", "XDG_CACHE_HOME=" + cache.path().string()});
  const auto took = std::chrono::steady_clock::now() - started;
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK(took < std::chrono::seconds(30));
  CHECK_THAT(run.out, Contains("the compile budget of 3 s (compile.budget_seconds) was spent"));
  CHECK_THAT(run.out, !Contains("does not compile"));
}
