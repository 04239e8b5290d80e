// SPDX-License-Identifier: Apache-2.0
// The offline forecast inside `kforecast lint`: each changed kernel gets a diagnostic on its line
// with the forecast's bin, P(regression) and confidence, the rationale in note lines, in every
// format; lint.forecast_fail_confidence decides when it blocks. The built-in model is an
// untrained prior, so the expectations are read from what the model says, not assumed.

#include <fstream>
#include <regex>

#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

const std::string no_nvrtc = "KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so";

constexpr std::string_view base_kernel =
    "#define N 4\n"
    "__global__ void scale(float* __restrict__ x, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] = 2.0f * x[i];\n"
    "}\n"
    "__global__ void untouched(float* __restrict__ x) { x[0] = 1.0f; }\n";

// The same file with scale() doing more work per element.
constexpr std::string_view changed_kernel =
    "#define N 4\n"
    "__global__ void scale(float* __restrict__ x, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) {\n"
    "    float v = x[i];\n"
    "    for (int k = 0; k < n; ++k) v = v * 0.5f + 1.0f;\n"
    "    x[i] = v;\n"
    "  }\n"
    "}\n"
    "__global__ void untouched(float* __restrict__ x) { x[0] = 1.0f; }\n";

// P(regression) as the diagnostic prints it (two decimals).
double printed_p_regression(const std::string& out) {
  std::smatch match;
  REQUIRE(std::regex_search(out, match, std::regex(R"(P\(regression\) ([0-9.]+))")));
  return std::stod(match[1].str());
}

}  // namespace

TEST_CASE("e2e: lint --staged forecasts the changed kernel on its line, with the rationale as notes") {
  FixtureRepo repo;
  repo.write("k.cu", base_kernel);
  repo.commit("base");
  repo.write("k.cu", changed_kernel);
  repo.git({"add", "k.cu"});
  auto run = run_kforecast({"lint", "--staged"}, repo.path(), {no_nvrtc});
  INFO(run.out << run.err);
  CHECK(run.status == 0);  // the default bar (0.8) is above what the prior model gives
  CHECK_THAT(run.out, Contains("k.cu:2:1: note: forecast: speedup "));
  CHECK_THAT(run.out, Contains("P(regression) "));
  CHECK_THAT(run.out, Contains(", confidence "));
  CHECK_THAT(run.out, Contains("[forecast]\nk.cu:2:1: note: forecast: model ordinal logistic"));
  // Only the changed kernel is forecast.
  CHECK(run.out.find("forecast: speedup") == run.out.rfind("forecast: speedup"));
  CHECK(run.out.find("k.cu:10:") == std::string::npos);

  auto json = run_kforecast({"lint", "--staged", "--format", "json"}, repo.path(), {no_nvrtc});
  CHECK_THAT(json.out, Contains("\"rule\": \"forecast\", \"severity\": \"note\", \"message\": \"forecast: speedup"));
  CHECK_THAT(json.out, Contains("\"function\": \"scale\""));
  CHECK_THAT(json.out, Contains("\"notes\": [\"forecast: model ordinal logistic"));
  CHECK_THAT(json.out, Contains("forecast offline from source features (no NVRTC, no network)"));
  auto sarif = run_kforecast({"lint", "--staged", "--format", "sarif"}, repo.path(), {no_nvrtc});
  CHECK_THAT(sarif.out, Contains("{\"id\": \"forecast\""));
  CHECK_THAT(sarif.out, Contains("\"ruleId\": \"forecast\""));
  CHECK(sarif.out.find("\"ruleIndex\": -1") == std::string::npos);
}

TEST_CASE("e2e: lint exits 1 when the forecast's P(regression) is above lint.forecast_fail_confidence") {
  FixtureRepo repo;
  repo.write("k.cu", base_kernel);
  repo.commit("base");
  repo.write("k.cu", changed_kernel);
  repo.git({"add", "k.cu"});
  const double p = printed_p_regression(run_kforecast({"lint", "--staged"}, repo.path(), {no_nvrtc}).out);
  REQUIRE(p >= 0.02);  // the printed value is rounded: the bars below are 0.01 either side of it
  REQUIRE(p <= 0.98);

  repo.write(".kforecast.toml", "[lint]\nforecast_fail_confidence = " + std::to_string(p - 0.01) + "\n");
  auto blocked = run_kforecast({"lint", "--staged"}, repo.path(), {no_nvrtc});
  INFO(blocked.out << blocked.err);
  CHECK(blocked.status == 1);
  CHECK_THAT(blocked.out, Contains("k.cu:2:1: error: forecast: speedup"));
  CHECK_THAT(blocked.out, Contains("a regression is likely (above lint.forecast_fail_confidence = "));

  repo.write(".kforecast.toml", "[lint]\nforecast_fail_confidence = " + std::to_string(p + 0.01) + "\n");
  auto allowed = run_kforecast({"lint", "--staged"}, repo.path(), {no_nvrtc});
  CHECK(allowed.status == 0);
  CHECK_THAT(allowed.out, Contains("k.cu:2:1: note: forecast: speedup"));

  // --no-forecast skips it, whatever the bar.
  repo.write(".kforecast.toml", "[lint]\nforecast_fail_confidence = 0\n");
  auto skipped = run_kforecast({"lint", "--staged", "--no-forecast", "--format", "json"}, repo.path(), {no_nvrtc});
  CHECK(skipped.status == 0);
  CHECK(skipped.out.find("forecast: speedup") == std::string::npos);
  CHECK_THAT(skipped.out, Contains("forecast not run: --no-forecast"));

  // The forecast diagnostic is silenced like a rule's.
  repo.write("k.cu",
             std::string(changed_kernel)
                 .replace(std::string(changed_kernel).find("int n) {"), 8, "int n) {  // kforecast: ignore forecast"));
  repo.git({"add", "k.cu"});
  auto silenced = run_kforecast({"lint", "--staged"}, repo.path(), {no_nvrtc});
  CHECK(silenced.status == 0);
  CHECK(silenced.out.find("forecast: speedup") == std::string::npos);

  // An out-of-range bar is the config's error.
  repo.write(".kforecast.toml", "[lint]\nforecast_fail_confidence = 2\n");
  CHECK(run_kforecast({"lint", "--staged"}, repo.path(), {no_nvrtc}).status == 2);
}

TEST_CASE("e2e: lint FILE forecasts the file's changed kernels against HEAD") {
  FixtureRepo repo;
  repo.write("src/k.cu", base_kernel);
  repo.commit("base");
  // Unchanged against HEAD: nothing to forecast.
  auto same = run_kforecast({"lint", "src/k.cu"}, repo.path(), {no_nvrtc});
  CHECK(same.out.find("forecast: speedup") == std::string::npos);

  repo.write("src/k.cu", changed_kernel);  // in the work tree only
  auto run = run_kforecast({"lint", "src/k.cu"}, repo.path(), {no_nvrtc});
  INFO(run.out << run.err);
  CHECK_THAT(run.out, Contains("src/k.cu:2:1: note: forecast: speedup"));
  // Named from a subdirectory, the diagnostics use the name given.
  auto inside = run_kforecast({"lint", "k.cu"}, repo.path() / "src", {no_nvrtc});
  INFO(inside.err);
  CHECK_THAT(inside.out, Contains("k.cu:2:1: note: forecast: speedup"));
  CHECK(inside.out.find("src/k.cu") == std::string::npos);

  // A new kernel has nothing to be forecast against: a note says so.
  repo.write("src/k.cu", std::string(changed_kernel) + "__global__ void fresh(float* __restrict__ x) { x[1] = 0; }\n");
  auto added = run_kforecast({"lint", "src/k.cu", "--format", "json"}, repo.path(), {no_nvrtc});
  CHECK_THAT(added.out, Contains("fresh is new, so there is no earlier version to forecast against"));
}

TEST_CASE("e2e: lint without an earlier version says why there is no forecast") {
  FixtureRepo repo;
  repo.write("k.cu", changed_kernel);
  repo.git({"add", "k.cu"});
  auto run = run_kforecast({"lint", "--staged", "--format", "json"}, repo.path(), {no_nvrtc});
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("forecast not run: no commit yet (HEAD), so no kernel has an earlier version"));

  kforecast::testing::TempDir plain;
  std::ofstream(plain.path() / "k.cu") << changed_kernel;
  auto outside = run_kforecast({"lint", "k.cu", "--format", "json"}, plain.path(), {no_nvrtc});
  CHECK(outside.status == 0);
  CHECK_THAT(outside.out, Contains("forecast not run: the files are not in a git repository"));
}
