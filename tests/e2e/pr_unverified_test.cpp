// SPDX-License-Identifier: Apache-2.0
// `kforecast pr` where nothing can be measured: the kernels the policy sends to the GPU stay
// unverified, and policy.on_unverified decides — with no GPU (the driver pointed at a library
// that does not exist, so the outcome is the same on a GPU machine) and with --no-bench.
#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "pr_bench_fixture.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

namespace {
const std::vector<std::string> no_gpu{"KFORECAST_CUDA_DRIVER_LIBRARY=/nonexistent/libcuda.so.1"};
}

TEST_CASE("e2e: pr without a GPU leaves the kernels it would measure unverified, and on_unverified decides") {
  SECTION("warn: the gate passes with warnings") {
    FixtureRepo repo;
    commit_slower_kernel(repo);
    for (const bool no_bench : {false, true}) {
      INFO("--no-bench " << no_bench);
      std::vector<std::string> args{"pr", "--base", "HEAD~1", "--format", "json"};
      if (no_bench) args.push_back("--no-bench");
      auto run = run_kforecast(args, repo.path(), no_bench ? std::vector<std::string>{} : no_gpu);
      INFO(run.err);
      CHECK(run.status == 0);
      CHECK_THAT(run.out, Contains("\"verdict\": \"pass\""));
      CHECK_THAT(run.out, !Contains("\"decision\": \"measured\""));
      CHECK_THAT(run.out, Contains("\"measurement\": null"));
      CHECK_THAT(run.out, Contains("needs a GPU measurement (P(regression)"));
      CHECK_THAT(run.out, Contains(no_bench ? "unverified: not measured: --no-bench was given"
                                            : "unverified: not measured: no GPU here ("));
      // Runnable as printed: the base revision compared against, not a placeholder.
      std::string base_sha = repo.git({"rev-parse", "HEAD~1"});
      while (!base_sha.empty() && base_sha.back() == '\n') base_sha.pop_back();
      CHECK_THAT(run.out, Contains("run `kforecast bench src/settle.cu:settle --against " + base_sha.substr(0, 7)));
      CHECK_THAT(run.out, !Contains("--against BASE"));
      CHECK_THAT(run.out, Contains("(policy.on_unverified = warn)"));
      CHECK_THAT(run.out, Contains("\"gpu_time\": {\"spent_seconds\": 0, \"measured\": 0, \"measurable\": 2"));
      CHECK_FALSE(std::filesystem::exists(repo.path() / ".kforecast/ledger.jsonl"));
    }
    auto markdown = run_kforecast({"pr", "--base", "HEAD~1"}, repo.path(), no_gpu);
    CHECK_THAT(markdown.out, Contains("GPU time: none spent (no GPU)."));
  }
  SECTION("fail: the gate fails on unverified risk") {
    FixtureRepo repo;
    commit_slower_kernel(repo, "on_unverified = \"fail\"\n");
    for (const bool no_bench : {false, true}) {
      INFO("--no-bench " << no_bench);
      std::vector<std::string> args{"pr", "--base", "HEAD~1", "--format", "json"};
      if (no_bench) args.push_back("--no-bench");
      auto run = run_kforecast(args, repo.path(), no_bench ? std::vector<std::string>{} : no_gpu);
      INFO(run.err);
      CHECK(run.status == 1);
      CHECK_THAT(run.out, Contains("\"verdict\": \"fail\""));
      CHECK_THAT(run.out, Contains("(policy.on_unverified = fail)"));
    }
    auto sarif = run_kforecast({"pr", "--base", "HEAD~1", "--format", "sarif"}, repo.path(), no_gpu);
    CHECK_THAT(sarif.out, Contains("\"ruleId\": \"kforecast/unverified\""));
    CHECK_THAT(sarif.out, Contains("\"level\": \"error\""));
  }
}

TEST_CASE("e2e: a renamed kernel's suggested command names its old name at the base") {
  // A vLLM fork renamed advance_step_kernel and changed its signature's layout; the unit did not
  // compile, so it was forecast, and `--against BASE` alone looked for the new name at the base.
  FixtureRepo repo;
  const auto file = [](std::string_view name) {
    return "#include <framework/api.h>\n__global__ void " + std::string(name) +
           "(float* a, int n) {\n  int i = threadIdx.x;\n  if (i < n) a[i] = 2.0f * a[i];\n}\n";
  };
  repo.write("src/step.cu", file("step_kernel"));
  repo.commit("base");
  repo.write("src/step.cu", file("step_fast_kernel"));
  repo.commit("head: renamed");
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json", "--no-bench"}, repo.path());
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"change\": \"renamed\""));
  CHECK_THAT(run.out, Contains("\"base_kernel\": \"src/step.cu:step_kernel\""));
  CHECK_THAT(run.out, Contains("kforecast bench src/step.cu:step_fast_kernel --against "));
  CHECK_THAT(run.out, Contains(" --vs src/step.cu:step_kernel` on a GPU"));
}

TEST_CASE("e2e: pr --help teaches --no-bench and the GPU budget") {
  auto help = run_kforecast({"help", "pr"});
  CHECK(help.status == 0);
  CHECK_THAT(help.out, Contains("--no-bench"));
  CHECK_THAT(help.out, Contains("policy.gpu_budget_seconds"));
  CHECK_THAT(help.out, Contains("policy.fail_on_inconclusive"));
}

TEST_CASE("e2e: pr without a GPU does not run capture.command, and the report says why") {
  FixtureRepo repo;
  // The command would leave a mark in the repository's parent if it ran.
  const auto mark = repo.path().parent_path() / "capture-command-ran";
  commit_slower_kernel(repo, "[capture]\ncommand = \"touch " + mark.string() + "\"\n");
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path(), no_gpu);
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("capture.command not run: no GPU here ("));
  CHECK_THAT(run.out, Contains("unverified: not measured: no GPU here ("));
  CHECK_FALSE(std::filesystem::exists(mark));
}
