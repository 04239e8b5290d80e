// SPDX-License-Identifier: Apache-2.0
// `kforecast pr` behaviour that does not depend on NVRTC being present; what NVRTC adds is in
// pr_nvrtc_test.cpp, skipped where it is not installed.

#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <catch2/catch.hpp>

#include "e2e.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

TEST_CASE("e2e: pr without NVRTC or nvcc reports changed kernels as not compared, never as identical") {
  FixtureRepo repo;
  commit_one_kernel_change(repo);
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path(),
                           {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so", "KFORECAST_NVCC=off"});
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"decision\": \"forecast_only\""));
  CHECK_THAT(run.out, !Contains("identical_code"));
  CHECK_THAT(run.out, Contains("machine code not compared: NVRTC not found"));
}

TEST_CASE("e2e: a kernel changed only at a launch site in another file gets a wide forecast that names the change") {
  // The block size changed at the <<<>>> site of a runner: the kernel's file reads the same at
  // both revisions, so a forecast from the text could only say "no change".
  FixtureRepo repo;
  repo.write("k.cuh", "#pragma once\n__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n");
  repo.write("run.cu", "#include \"k.cuh\"\nvoid run(float* a) { k<<<1, 32>>>(a); }\n");
  repo.commit("base");
  repo.write("run.cu", "#include \"k.cuh\"\nvoid run(float* a) { k<<<1, 256>>>(a); }\n");
  repo.commit("head");
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json", "--no-bench"}, repo.path(),
                           {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so", "KFORECAST_NVCC=off"});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("launch configuration at run.cu:2 changed"));
  CHECK_THAT(run.out, Contains("its text reads the same at both revisions and the model reads only the text; what "
                               "changed lies outside it (launch configuration at run.cu:2 changed)"));
  CHECK_THAT(run.out, Contains("\"confidence\": 0.27"));
  CHECK_THAT(run.out, Contains("needs a GPU measurement (P(regression) 0.48 >= 0.20)"));
}

TEST_CASE("e2e: pr writes the config's report.format when --format is not given, and --format wins") {
  FixtureRepo repo;
  repo.write(".kforecast.toml", "[report]\nformat = \"json\"\n");
  commit_one_kernel_change(repo);
  auto run = run_kforecast({"pr", "--base", "HEAD~1"}, repo.path());
  CHECK(run.status == 0);
  CHECK(run.out.starts_with("{"));
  CHECK_THAT(run.out, Contains("\"kernels\": ["));
  auto markdown = run_kforecast({"pr", "--base", "HEAD~1", "--format", "md"}, repo.path());
  CHECK(markdown.status == 0);
  CHECK(markdown.out.starts_with("## kforecast"));
}

TEST_CASE("e2e: pr mistakes are usage errors") {
  FixtureRepo repo;
  commit_one_kernel_change(repo);
  auto bad_base = run_kforecast({"pr", "--base", "no-such-rev"}, repo.path());
  CHECK(bad_base.status == 2);
  CHECK_THAT(bad_base.err, Contains("revision 'no-such-rev' names no commit"));
  auto no_upstream = run_kforecast({"pr"}, repo.path());
  CHECK(no_upstream.status == 2);
  CHECK_THAT(no_upstream.err, Contains("pass --base REV"));
  auto not_a_repo = run_kforecast({"pr", "--base", "HEAD~1", "--repo", "/"});
  CHECK(not_a_repo.status == 2);
  auto format = run_kforecast({"pr", "--base", "HEAD~1", "--format", "xml"}, repo.path());
  CHECK(format.status == 2);
  auto plan_without_file = run_kforecast({"pr", "--base", "HEAD~1", "--plan"}, repo.path());
  CHECK(plan_without_file.status == 2);
}

TEST_CASE("e2e: pr reads the config from the base revision, so a PR cannot change its own gate") {
  FixtureRepo repo;
  repo.write(".kforecast.toml", "[cuda]\narch = \"sm_80\"\n");
  commit_one_kernel_change(repo);
  repo.write(".kforecast.toml", "[cuda]\narch = \"sm_not_a_gpu\"\n");
  repo.commit("the PR edits the config");
  auto run = run_kforecast({"pr", "--base", "HEAD~2", "--format", "json"}, repo.path());
  CHECK(run.status == 0);
  CHECK_THAT(run.out, !Contains("sm_not_a_gpu"));
  SECTION("a base config that is invalid names the revision") {
    FixtureRepo broken;
    broken.write(".kforecast.toml", "[cuda]\narhc = 1\n");
    commit_one_kernel_change(broken);
    auto bad = run_kforecast({"pr", "--base", "HEAD~1"}, broken.path());
    CHECK(bad.status == 2);
    CHECK_THAT(bad.err, Contains(":.kforecast.toml:2:1: unknown key 'cuda.arhc' (did you mean 'cuda.arch'?)"));
  }
}

TEST_CASE("e2e: pr --staged reviews the index, and --output writes a file") {
  FixtureRepo repo;
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 1.0f; }\n");
  repo.commit("base");
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 3.0f; }\n__global__ void extra(int* p) { *p = 0; }\n");
  repo.git({"add", "k.cu"});
  const auto report = repo.path() / "report.md";
  auto run = run_kforecast({"pr", "--staged", "--output", report.string()}, repo.path());
  CHECK(run.status == 0);
  CHECK(run.out.empty());
  std::ifstream in(report);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  CHECK_THAT(text, Contains("| `extra` | `k.cu:2` | added |"));
  CHECK_THAT(text, Contains("| `k` | `k.cu:1` | modified |"));
}

TEST_CASE("e2e: pr --diff reviews a git patch against the work tree, from a file or standard input") {
  FixtureRepo repo;
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 1.0f; }\n");
  repo.commit("base");
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 3.0f; }\n__global__ void extra(int* p) { *p = 0; }\n");
  const std::string patch = repo.git({"diff"});
  repo.write("change.diff", patch);
  for (const bool from_stdin : {false, true}) {
    INFO(from_stdin);
    auto run = from_stdin ? run_kforecast({"pr", "--diff", "-"}, repo.path(), {}, patch)
                          : run_kforecast({"pr", "--diff", "change.diff"}, repo.path());
    CHECK(run.status == 0);
    CHECK_THAT(run.out, Contains("| `extra` | `k.cu:2` | added |"));
    CHECK_THAT(run.out, Contains("| `k` | `k.cu:1` | modified |"));
    CHECK_THAT(run.out, Contains("revisions: the patch given with --diff"));
  }
  SECTION("a diff without index lines cannot name its base") {
    auto run = run_kforecast({"pr", "--diff", "-"}, repo.path(), {},
                             "--- k.cu\t2026-01-01\n+++ k.cu\t2026-01-02\n@@ -1 +1 @@\n-a\n+b\n");
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains("has no 'index' line"));
  }
  SECTION("a patch whose base is not in this repository") {
    auto run = run_kforecast({"pr", "--diff", "-"}, repo.path(), {},
                             "diff --git a/k.cu b/k.cu\nindex 1111111..2222222 100644\n--- a/k.cu\n+++ b/k.cu\n"
                             "@@ -1 +1 @@\n-a\n+b\n");
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains("not in this repository"));
  }
  SECTION("a missing patch file") {
    auto run = run_kforecast({"pr", "--diff", "nope.diff"}, repo.path());
    CHECK(run.status == 2);
    CHECK_THAT(run.err, Contains("--diff: cannot read 'nope.diff'"));
  }
}

TEST_CASE("e2e: pr in GitHub Actions takes base and head from the pull-request event") {
  FixtureRepo repo;
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 1.0f; }\n");
  const std::string base = repo.commit("base");
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 2.0f; }\n");
  const std::string head = repo.commit("head");
  // The checkout is the base (as a merge commit checkout would not be the head either), so HEAD
  // is not what is reviewed: the event's head is.
  repo.git({"checkout", "-q", "HEAD~1"});
  const auto event = repo.path().parent_path() / (repo.path().filename().string() + "-event.json");
  std::ofstream(event) << R"({"number": 5, "pull_request": {"number": 5, "base": {"sha": ")" << base
                       << R"("}, "head": {"sha": ")" << head << R"("}}})";
  auto run = run_kforecast({"pr", "--format", "json"}, repo.path(),
                           {"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request",
                            "GITHUB_EVENT_PATH=" + event.string(), "KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"});
  std::filesystem::remove(event);
  INFO(run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"base\": \"" + base + "\""));
  CHECK_THAT(run.out, Contains("\"head\": \"" + head + "\""));
  CHECK_THAT(run.out, Contains("\"change\": \"modified\""));
}

TEST_CASE("e2e: pr --format sarif annotates the changed kernel's line") {
  FixtureRepo repo;
  commit_one_kernel_change(repo);
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "sarif"}, repo.path(),
                           {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"});
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"version\": \"2.1.0\""));
  CHECK_THAT(run.out, Contains("\"ruleId\": \"kforecast/unverified\""));
  CHECK_THAT(run.out, Contains("\"uri\": \"k.cu\""));
  CHECK_THAT(run.out, Contains("\"startLine\": 1"));
}

TEST_CASE("e2e: calibration reads the ledger and suggests thresholds") {
  FixtureRepo repo;
  const std::string ledger = std::string(KF_SOURCE_DIR) + "/fixtures/ledger/sample.jsonl";
  auto run = run_kforecast({"calibration", "--ledger", ledger, "--target-risk", "0"}, repo.path());
  INFO(run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("3 measured kernels (1 failed measurements not counted)"));
  CHECK_THAT(run.out, Contains("accuracy     0.667"));
  CHECK_THAT(run.out, Contains("regressions         1, 1 of them sent to the GPU"));
  CHECK_THAT(run.out, Contains("max_p_regression = "));

  auto json = run_kforecast({"calibration", "--ledger", ledger, "--format", "json"}, repo.path());
  CHECK(json.status == 0);
  CHECK_THAT(json.out, Contains("\"failed_measurements\": 1"));
  CHECK_THAT(json.out, Contains("\"fitted_policy\": {"));

  auto missing = run_kforecast({"calibration"}, repo.path());
  CHECK(missing.status == 3);
  CHECK_THAT(missing.err, Contains("no ledger at .kforecast/ledger.jsonl"));
  auto bad_rate = run_kforecast({"calibration", "--ledger", ledger, "--target-risk", "2"}, repo.path());
  CHECK(bad_rate.status == 2);

  const auto plots = repo.path() / "plots";
  auto drawn = run_kforecast({"calibration", "--ledger", ledger, "--plots", plots.string()}, repo.path());
  INFO(drawn.err);
  CHECK(drawn.status == 0);
  CHECK_THAT(drawn.err, Contains("wrote " + (plots / "reliability.svg").string()));
  for (const char* name : {"reliability.svg", "risk_coverage.svg"}) {
    std::ifstream svg(plots / name);
    const std::string text{std::istreambuf_iterator<char>(svg), {}};
    CHECK_THAT(text, Contains("<svg xmlns="));
    CHECK_THAT(text, Contains("3 measured kernels in"));  // the subtitle: what was plotted
  }
}

TEST_CASE("e2e: pr's policy trusts a sure forecast, and on_unverified decides the rest") {
  FixtureRepo repo;
  repo.write(".kforecast.toml", "[policy]\non_unverified = \"fail\"\n");
  commit_one_kernel_change(repo);
  const std::vector<std::string> no_nvrtc{"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"};
  // The compiled-in model is a wide prior: nothing is sure enough, so the kernel needs a GPU.
  auto strict = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path(), no_nvrtc);
  CHECK(strict.status == 1);
  CHECK_THAT(strict.out, Contains("\"forecaster\": \"embedded\""));
  CHECK_THAT(strict.out, Contains("needs a GPU measurement"));
  CHECK_THAT(strict.out, Contains("\"verdict\": \"fail\""));

  // Bars low enough for the prior: the forecast is trusted and the kernel passes.
  repo.write(".kforecast.toml", "[policy]\non_unverified = \"fail\"\nmax_p_regression = 0.9\nmin_confidence = 0.1\n");
  repo.commit("loosen the bars");  // read from the base revision: compare the new commit with a later one
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 3.0f; }\n");
  repo.commit("head again");
  auto trusting = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path(), no_nvrtc);
  CHECK(trusting.status == 0);
  CHECK_THAT(trusting.out, Contains("\"decision\": \"trusted_forecast\""));
  CHECK_THAT(trusting.out, Contains("trusted forecast: P(regression)"));
}

TEST_CASE("e2e: pr gives the embedded forecaster each side's launch from its spec, and says when there is none") {
  // Base: a thread per element; head: four elements per thread on a quarter of the grid, each
  // side with its own `// kforecast:` block. `other` has no spec.
  const auto spec = [](std::string_view grid) {
    return fmt::format(
        "// kforecast:\n// sizes = [{{ n = 1048576 }}]\n// grid = [\"{}\"]\n// block = [256]\n// [kernel.args]\n"
        "// x = {{ count = \"n\" }}\n// y = {{ count = \"n\", role = \"out\" }}\n// n = \"n\"\n",
        grid);
  };
  FixtureRepo repo;
  repo.write("k.cu", spec("ceil_div(n, 256)") +
                         "__global__ void k(const float* x, float* y, int n) {\n"
                         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) y[i] = 2 * x[i];\n}\n"
                         "__global__ void other(float* a) { a[0] = 1.0f; }\n");
  repo.commit("base");
  repo.write("k.cu", spec("ceil_div(n, 1024)") +
                         "__global__ void k(const float* x, float* y, int n) {\n"
                         "  int i = blockIdx.x * blockDim.x * 4 + threadIdx.x;\n"
                         "  for (int j = 0; j < 4; ++j, i += blockDim.x) if (i < n) y[i] = 2 * x[i];\n}\n"
                         "__global__ void other(float* a) { a[0] = 2.0f; }\n");
  repo.commit("head");
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json", "--no-bench"}, repo.path(),
                           {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"});
  INFO(run.out << run.err);
  REQUIRE(run.status == 0);
  const auto k = run.out.find("\"name\": \"k\"");
  const auto other = run.out.find("\"name\": \"other\"");
  REQUIRE(k != std::string::npos);
  REQUIRE(other != std::string::npos);
  const std::string k_entry = run.out.substr(k, other > k ? other - k : std::string::npos);
  const std::string other_entry = run.out.substr(other, k > other ? k - other : std::string::npos);
  CHECK_THAT(other_entry, Contains("no launch spec"));
  CHECK_THAT(k_entry, !Contains("no launch spec"));
}
