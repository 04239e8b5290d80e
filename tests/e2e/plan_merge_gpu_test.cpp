// SPDX-License-Identifier: Apache-2.0
// The plan / shard / merge path on a GPU: the 8x slower kernel measured by a GPU shard is the
// same measured regression, the same gate verdict and exit code, as one `kforecast pr` run
// measures; the kernel without a launch spec is unverified in both; the shard writes the ledger
// line pr would. Timings differ between two measurements, so kernels are compared by decision,
// verdict and measured verdict, not byte for byte. Skipped (exit 77) without a GPU and NVRTC; on
// a GPU machine with a binary built elsewhere, set KF_TEST_BINARY to it.
#include <cstdlib>
#include <fstream>
#include <map>

#include <fmt/format.h>

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
namespace fs = std::filesystem;

namespace {

std::string binary() {
  const char* value = std::getenv("KF_TEST_BINARY");
  return value != nullptr && *value != '\0' ? value : KF_BINARY;
}

ProcessOutput run(const testing::FixtureRepo& repo, std::vector<std::string> args) {
  args.insert(args.begin(), binary());
  auto output = run_process(args, {.working_directory = repo.path().string(), .timeout = std::chrono::seconds(300)});
  if (!output) FAIL(output.error().message);
  return *output;
}

std::size_t lines_in(const fs::path& path) {
  std::ifstream in(path);
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() {
  if (auto missing = missing_gpu()) return missing;
  return missing_nvrtc();
}

TEST_CASE("e2e gpu: plan, GPU shards and merge give the verdict of one pr run on a measured regression") {
  testing::FixtureRepo repo;
  e2e::commit_slower_kernel(repo, "[bench]\nmax_gpu_seconds = 20\n");
  const fs::path ledger = repo.path() / ".kforecast/ledger.jsonl";
  const auto single = run(repo, {"pr", "--base", "HEAD~1", "--format", "json"});
  INFO(single.out << single.err);
  REQUIRE(single.exit_status == 1);
  CHECK(lines_in(ledger) == 1);

  const std::string plan = (repo.path() / ".git/plan.json").string();
  REQUIRE(run(repo, {"pr", "--base", "HEAD~1", "--plan", plan}).exit_status == 0);
  std::vector<std::string> merge{"report", "--merge", plan, "--format", "json"};
  for (const std::string shard : {"1/2", "2/2"}) {
    const std::string results = (repo.path() / fmt::format(".git/results-{}.json", shard[0])).string();
    const auto measured = run(repo, {"bench", "--plan", plan, "--shard", shard, "--output", results});
    INFO(measured.err);
    REQUIRE(measured.exit_status == 0);
    merge.push_back(results);
  }
  CHECK(lines_in(ledger) == 2);  // the shard that measured settle appended its line, as pr does
  const auto merged = run(repo, merge);
  INFO(merged.out << merged.err);
  CHECK(merged.exit_status == single.exit_status);
  const auto single_report = e2e::read_report_kernels(single.out);
  const auto merged_report = e2e::read_report_kernels(merged.out);
  CHECK(merged_report.gate == "fail");
  CHECK(merged_report.gate == single_report.gate);
  CHECK(merged_report.summaries == single_report.summaries);
  CHECK(merged_report.summaries.at("settle") == "measured fail regression");
  CHECK_THAT(merged.out, Contains("no launch spec, so it cannot be run"));
  CHECK_THAT(merged.out, Contains("measured 1 kernel on the GPU; ledger: "));
}
