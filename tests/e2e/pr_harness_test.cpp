// SPDX-License-Identifier: Apache-2.0
// kforecast pr measuring changed kernels through the project's own benchmark harness, end to end
// and without a GPU: fixtures/harness/project is a CMake project whose Google Benchmark program
// (Debian's libbenchmark-dev) times each kernel's device function on the CPU. The test commits it
// as the base and one of fixtures/harness/heads/* over it as the head, and runs the real binary:
// kforecast checks out both revisions, builds them with the config's command, runs the mapped
// benchmark in A B B A rounds of processes and decides with the runner's statistics. A head that
// does 30% more work in one kernel fails the gate; one that does less passes; a build that fails,
// a benchmark that reports an error and output cut off in the middle leave the kernel unverified
// with the file and the field named, never a pass.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "e2e/e2e.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

// Google Benchmark (its pkg-config file comes with its CMake package in libbenchmark-dev) and CMake:
// the fixture's build needs both.
std::optional<std::string> kforecast::testing::missing_requirement() {
  auto benchmark = kforecast::run_process({"pkg-config", "--exists", "benchmark"});
  if (!benchmark || benchmark->exit_status != 0)
    return std::string("Google Benchmark is not installed (Debian's libbenchmark-dev; scripts/setup.sh installs it)");
  auto cmake = kforecast::run_process({"cmake", "--version"});
  if (!cmake || cmake->exit_status != 0) return std::string("cmake is not installed");
  return std::nullopt;
}

namespace {

const fs::path fixtures = fs::path(KF_SOURCE_DIR) / "fixtures/harness";

void copy_into(const FixtureRepo& repo, const fs::path& from) {
  for (const auto& entry : fs::recursive_directory_iterator(from)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    repo.write(fs::relative(entry.path(), from), std::string(std::istreambuf_iterator<char>(in), {}));
  }
}

// The worktrees and builds are cached by tree: one cache for the whole test program, so the base,
// the same in every case, is built once.
const fs::path& harness_cache() {
  static const kforecast::testing::TempDir cache;
  return cache.path();
}

Run pr_with_head(const std::string& head) {
  FixtureRepo repo;
  copy_into(repo, fixtures / "project");
  repo.commit("base");
  copy_into(repo, fixtures / "heads" / head);
  repo.commit("head: " + head);
  std::vector<std::string> argv{"env", "-i", "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp",
                                "XDG_CACHE_HOME=" + harness_cache().string()};
  if (const char* libraries = std::getenv("LD_LIBRARY_PATH")) argv.push_back(std::string("LD_LIBRARY_PATH=") + libraries);
  for (auto& variable : kforecast::testing::toolkit_environment()) argv.push_back(std::move(variable));
  argv.insert(argv.end(), {KF_BINARY, "pr", "--base", "HEAD~1", "--format", "json"});
  auto result = kforecast::run_process(
      argv, {.working_directory = repo.path().string(), .timeout = std::chrono::seconds(600)});
  REQUIRE(result.has_value());
  return {result->exit_status, result->out, result->err};
}

}  // namespace

TEST_CASE("e2e harness: a head whose kernel does 30% more work fails the gate, measured by Google Benchmark") {
  const auto run = pr_with_head("slower");
  INFO(run.out << run.err);
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Contains("\"name\": \"scale_kernel\""));
  CHECK_THAT(run.out, Contains("\"decision\": \"measured\""));
  CHECK_THAT(run.out, Contains("\"verdict\": \"regression\""));
  CHECK_THAT(run.out, Contains("harness 'cpu' (gbench, CPU time): ^BM_Scale$"));
  CHECK_THAT(run.out, Contains("through the project's harness"));
}

TEST_CASE("e2e harness: a head whose kernel does less work passes, measured faster") {
  const auto run = pr_with_head("faster");
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"verdict\": \"faster\""));
  CHECK_THAT(run.out, Contains("\"unjudged\": 0"));
}

TEST_CASE("e2e harness: a head whose build fails leaves the kernel unverified with the build's log") {
  const auto run = pr_with_head("broken_build");
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"unjudged\": 1"));
  CHECK_THAT(run.out, Contains("unverified: not measured: the project's harness could not measure it: "));
  CHECK_THAT(run.out, Contains("building the head revision"));
  CHECK_THAT(run.out, Contains("with harness 'cpu' failed"));
  CHECK_THAT(run.out, Contains("missing_file.cpp"));
  CHECK_THAT(run.out, Contains("could not be judged"));
  CHECK_THAT(run.out, !Contains("\"decision\": \"measured\""));
}

TEST_CASE("e2e harness: a benchmark that reports an error leaves the kernel unverified, naming the field") {
  const auto run = pr_with_head("benchmark_error");
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"unjudged\": 1"));
  CHECK_THAT(run.out, Contains("unverified: not measured: the project's harness could not measure it: "));
  CHECK_THAT(run.out, Contains("head-2.json: benchmarks[0] (benchmark 'BM_Scale') reported an error: input file "
                               "data/scale.bin not found"));
  CHECK_THAT(run.out, !Contains("\"decision\": \"measured\""));
}

TEST_CASE("e2e harness: output cut off in the middle leaves the kernel unverified, naming the file") {
  const auto run = pr_with_head("truncated_output");
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"unjudged\": 1"));
  CHECK_THAT(run.out, Contains("unverified: not measured: the project's harness could not measure it: "));
  CHECK_THAT(run.out, Contains("head-2.json: not valid JSON"));
  CHECK_THAT(run.out, !Contains("\"decision\": \"measured\""));
}
