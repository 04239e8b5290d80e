// SPDX-License-Identifier: Apache-2.0
// Many pairs in one measuring process, on a real GPU, through the binary: a fault, a hang and a
// wrong answer are each their own pair's failure, and the pairs after each still measure in a
// fresh process; a regression is confirmed in one; the builds a decision kept are loaded, not
// compiled again. Skipped (exit 77) without a GPU. On a GPU machine with a binary built
// elsewhere, set KF_TEST_BINARY and KF_TEST_SOURCE_DIR.
#include <cstdlib>
#include <filesystem>

#include <catch2/catch.hpp>

#include "base/scratch_folder.hpp"
#include "measure/bench_child.hpp"
#include "support/cuda_requirements.hpp"
#include "support/gpu_test_paths.hpp"
#include "support/requirement.hpp"

using namespace kforecast;
using bench::Verdict;
using Catch::Matchers::Contains;

namespace {

const std::string binary = kforecast::testing::test_binary();
const std::string fixtures = kforecast::testing::test_source_dir() + "/fixtures/bench/";

measure::BenchPair copy_against(const std::string& candidate) {
  return {fixtures + "copy.cu:" + candidate, fixtures + "copy.cu:copy", "", "", ""};
}

const bench::Measurement& measured(const std::optional<Result<bench::Measurement>>& outcome) {
  REQUIRE(outcome.has_value());
  if (!*outcome) FAIL((*outcome).error().message);
  return **outcome;
}

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() { return missing_gpu(); }

TEST_CASE("batch gpu: faults, hangs and wrong answers fail their own pair, and the pairs after them measure") {
  measure::BatchRequest request;
  request.program = binary;
  request.config = fixtures + "short-timeout.toml";
  request.timeout_seconds = 15;
  request.pairs = {copy_against("copy"), copy_against("copy_out_of_bounds"), copy_against("copy"),
                   copy_against("copy_hangs"), copy_against("copy_wrong"), copy_against("copy")};
  const auto outcomes = measure::measure_batch_confirmed(request);
  REQUIRE(outcomes.size() == 6);
  CHECK(measured(outcomes[0]).verdict == Verdict::same);
  CHECK(measured(outcomes[1]).verdict == Verdict::failed);
  CHECK_THAT(measured(outcomes[1]).reason, Contains("CUDA_ERROR_"));
  CHECK(measured(outcomes[2]).verdict == Verdict::same);
  CHECK(measured(outcomes[3]).verdict == Verdict::failed);
  CHECK_THAT(measured(outcomes[3]).reason, Contains("did not finish within bench.timeout_seconds (15 s)"));
  CHECK(measured(outcomes[4]).verdict == Verdict::failed);
  CHECK_THAT(measured(outcomes[4]).reason, Contains("disagrees with the reference"));
  CHECK(measured(outcomes[5]).verdict == Verdict::same);
  for (const auto& outcome : outcomes) CHECK(measured(outcome).wall_seconds > 0);
}

TEST_CASE("batch gpu: a slower candidate among same ones is a regression confirmed in a fresh process that loads "
          "the kept builds") {
  const ScratchFolder builds("kforecast-batch-gpu");
  measure::BatchRequest request;
  request.program = binary;
  request.builds_folder = builds.path();
  request.pairs = {copy_against("copy"), {fixtures + "copy.cu:copy", fixtures + "copy.cu:copy_strided", "", "", ""},
                   {fixtures + "copy.cu:copy_strided", fixtures + "copy.cu:copy", "", "", ""}};
  const auto outcomes = measure::measure_batch_confirmed(request);
  REQUIRE(outcomes.size() == 3);
  CHECK(measured(outcomes[0]).verdict == Verdict::same);
  CHECK(measured(outcomes[1]).verdict == Verdict::faster);
  const auto& slower = measured(outcomes[2]);
  CHECK(slower.verdict == Verdict::regression);
  // Far past the tolerance, one process settles it; the builds are kept for any that follow.
  CHECK(slower.regression_checks == 1);
  std::size_t kept = 0;
  for (const auto& file : std::filesystem::directory_iterator(builds.path())) {
    const std::string name = file.path().filename().string();
    kept += file.path().extension() == ".cubin" && !name.starts_with("support-") ? 1 : 0;
  }
  CHECK(kept == 6);  // both sides of three pairs (the support kernels may come from kforecast's cache)
}
