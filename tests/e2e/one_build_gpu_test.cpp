// SPDX-License-Identifier: Apache-2.0
// pr, check --bench and bench measure the same build of the same kernel: the unit's compile
// context (here the base config's define) built by nvcc, as the project ships it. bench once
// measured NVRTC's build and called a 17% speedup a 6% regression. Skipped (exit 77) without a
// GPU and nvcc. On a GPU machine with a binary built elsewhere, set KF_TEST_BINARY to it.
#include <cstdlib>
#include <set>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/subprocess.hpp"
#include "pr_bench_fixture.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() {
  if (auto missing = missing_gpu()) return missing;
  return missing_nvcc();
}

namespace {

// Every "... was built by ..." line of a JSON answer, wherever it sits (a report kernel's notes,
// prefixed "measurement: ", or a measurement's own notes).
std::set<std::string> build_lines(const std::string& json) {
  INFO(json);
  const auto parsed = nlohmann::json::parse(json, nullptr, false);
  REQUIRE_FALSE(parsed.is_discarded());
  std::set<std::string> lines;
  const std::function<void(const nlohmann::json&)> walk = [&](const nlohmann::json& value) {
    if (value.is_string()) {
      std::string text = value.get<std::string>();
      if (text.starts_with("measurement: ")) text.erase(0, 13);
      if (text.find(" was built by ") != std::string::npos) lines.insert(text);
    } else if (value.is_structured()) {
      for (const auto& item : value) walk(item);
    }
  };
  walk(parsed);
  return lines;
}

ProcessOutput run(const testing::FixtureRepo& repo, std::vector<std::string> args) {
  const char* value = std::getenv("KF_TEST_BINARY");
  args.insert(args.begin(), value != nullptr && *value != '\0' ? value : KF_BINARY);
  auto result = run_process(args, {.working_directory = repo.path().string(), .timeout = std::chrono::seconds(300)});
  REQUIRE(result.has_value());
  INFO(result->out << result->err);
  return *result;
}

}  // namespace

TEST_CASE("e2e: pr, check --bench and bench measure the same nvcc build of a kernel") {
  testing::FixtureRepo repo;
  e2e::commit_slower_kernel(repo, "[compile]\ndefines = [\"KF_ONE_BUILD=1\"]\n");
  const auto pr = run(repo, {"pr", "--base", "HEAD~1", "--format", "json"});
  const auto check = run(repo, {"check", "src/settle.cu:settle", "--against", "HEAD~1", "--bench", "--format", "json"});
  const auto bench = run(repo, {"bench", "src/settle.cu:settle", "--against", "HEAD~1", "--format", "json"});
  const auto pr_lines = build_lines(pr.out);
  INFO(pr.out << "\n" << check.out << "\n" << bench.out);
  REQUIRE(pr_lines.size() == 2);  // the reference's and the candidate's
  for (const auto& line : pr_lines) {
    CHECK_THAT(line, Contains("nvcc"));
    CHECK_THAT(line, Contains("-DKF_ONE_BUILD=1"));
  }
  CHECK(build_lines(check.out) == pr_lines);
  CHECK(build_lines(bench.out) == pr_lines);
  CHECK(bench.exit_status == 1);  // the 8x slower head, a regression in every one of them
}

TEST_CASE("e2e: bench against a revision with the same kernel measures nothing and says why") {
  testing::FixtureRepo repo;
  e2e::commit_slower_kernel(repo, "[compile]\ndefines = [\"KF_ONE_BUILD=1\"]\n");
  // The work tree is HEAD: the kernel reads the same at both sides.
  const auto same = run(repo, {"bench", "src/settle.cu:settle", "--against", "HEAD"});
  CHECK(same.exit_status == 0);
  CHECK_THAT(same.out, Contains("src/settle.cu:settle: nothing to measure: "));
  const auto json = run(repo, {"bench", "src/settle.cu:settle", "--against", "HEAD", "--format", "json"});
  CHECK_THAT(json.out, Contains("\"measured\": false"));
}

