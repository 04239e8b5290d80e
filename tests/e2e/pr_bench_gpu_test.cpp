// SPDX-License-Identifier: Apache-2.0
// `kforecast pr` on a GPU: the kernel the policy sends to the GPU is measured, the 8x slower
// candidate is a measured regression that fails the gate (exit 1), the ledger gets its line, and
// the kernel without a launch spec stays unverified with the note saying how to add one.
// Skipped (exit 77) without a GPU and NVRTC. On a GPU machine with a binary built elsewhere, set
// KF_TEST_BINARY to it.
#include <cstdlib>
#include <fstream>

#include <catch2/catch.hpp>

#include "base/environment.hpp"
#include "base/subprocess.hpp"
#include "capture/recorded_capture.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/nvrtc.hpp"
#include "gate_job.hpp"
#include "pr_bench_fixture.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;
using Catch::Matchers::Contains;

namespace {

std::string binary() {
  const char* value = std::getenv("KF_TEST_BINARY");
  return value != nullptr && *value != '\0' ? value : KF_BINARY;
}

ProcessOutput run_pr(const testing::FixtureRepo& repo, std::vector<std::string> args) {
  std::vector<std::string> argv{binary(), "pr", "--base", "HEAD~1"};
  argv.insert(argv.end(), args.begin(), args.end());
  // Two child processes (the regression is confirmed), each capped by bench.max_gpu_seconds.
  auto output = run_process(argv, {.working_directory = repo.path().string(), .timeout = std::chrono::seconds(300)});
  if (!output) FAIL(output.error().message);
  return *output;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() {
  if (auto missing = missing_gpu()) return missing;
  return missing_nvrtc();
}

TEST_CASE("e2e gpu: pr measures the kernel the policy sends to the GPU, and an 8x slower one fails the gate") {
  testing::FixtureRepo repo;
  e2e::commit_slower_kernel(repo, "[bench]\nmax_gpu_seconds = 20\n");
  const auto run = run_pr(repo, {"--format", "json"});
  INFO(run.out << run.err);
  CHECK(run.exit_status == 1);

  const auto report = e2e::read_report_kernels(run.out);
  CHECK(report.gate == "fail");
  CHECK(report.summaries.at("settle") == "measured fail regression");
  REQUIRE(report.measured.contains("settle"));
  const auto [speedup, high] = report.measured.at("settle");
  CHECK(speedup < 0.7);  // 8x the dependent work in a kernel that is mostly that work
  CHECK(high < 1 / 1.02);
  CHECK(report.summaries.at("nospec") == "forecast_only warn -");
  CHECK_FALSE(report.measured.contains("nospec"));
  CHECK_THAT(run.out, Contains("no launch spec, so it cannot be run: add a `// kforecast:` comment block directly "
                               "above `nospec` in src/settle.cu (`kforecast spec suggest src/settle.cu:nospec` drafts "
                               "one;"));
  CHECK_THAT(run.out, Contains("\"gpu_time\": {\"spent_seconds\": "));

  const std::string ledger = read_file(repo.path() / ".kforecast/ledger.jsonl");
  CHECK(std::ranges::count(ledger, '\n') == 1);  // one measured kernel, one line
  CHECK_THAT(ledger, Contains("\"kernel\": \"settle\", \"file\": \"src/settle.cu\""));
  CHECK_THAT(ledger, Contains("\"verdict\": \"regression\""));
  CHECK_THAT(ledger, Contains("\"forecaster\": \"embedded\""));
  CHECK_THAT(ledger, !Contains("\"hardware\": \"\""));
  CHECK_THAT(ledger, !Contains("\"reference_hash\": \"\""));
  CHECK_THAT(ledger, !Contains("\"ci_low\": null"));

  // --no-bench measures nothing even here, and writes no ledger line.
  const auto skipped = run_pr(repo, {"--format", "json", "--no-bench"});
  CHECK(skipped.exit_status == 0);
  CHECK_THAT(skipped.out, Contains("unverified: not measured: --no-bench was given"));
  CHECK_THAT(skipped.out, !Contains("\"decision\": \"measured\""));
  CHECK(std::ranges::count(read_file(repo.path() / ".kforecast/ledger.jsonl"), '\n') == 1);

  // The Markdown report shows the measurement and the GPU time.
  const auto markdown = run_pr(repo, {});
  INFO(markdown.out);
  CHECK(markdown.exit_status == 1);
  CHECK_THAT(markdown.out, Contains("| `settle` | 0."));
  CHECK_THAT(markdown.out, Contains("| regression |"));
  CHECK_THAT(markdown.out, Contains(" s spent measuring 1 of 2 changed kernels (") && Contains(" s of wall time); about "));
  CHECK(std::ranges::count(read_file(repo.path() / ".kforecast/ledger.jsonl"), '\n') == 2);
}

TEST_CASE("e2e gpu gate: a measured regression fails the gate in the pull request's comment, once") {
  e2e::PullRequestJob job(
      [](testing::FixtureRepo& repo) { e2e::commit_slower_kernel(repo, "[bench]\nmax_gpu_seconds = 20\n"); });
  // A member's: measured whether or not this machine can sandbox a fork's (e2e/sandbox_test.cpp).
  job.name_author(e2e::PullRequestJob::Author::member);
  auto first = job.run({}, {}, 300);
  INFO(first.out << first.err);
  CHECK(first.status == 1);
  auto second = job.run({}, {}, 300);
  job.check_one_comment_updated(first, second);
  CHECK(job.comment().starts_with("<!-- kforecast:report -->\n## kforecast: fail"));
  CHECK_THAT(job.comment(), Contains("| `settle` |"));
  CHECK_THAT(job.comment(), Contains("regression"));
  CHECK_THAT(job.outputs(), Contains("verdict=fail\n"));
}

TEST_CASE("e2e gpu: pr replays the captured launch of a kernel without a spec") {
  testing::FixtureRepo repo;
  e2e::commit_slower_kernel(repo, "[bench]\nmax_gpu_seconds = 20\n");
  // nospec(float* a), as the capture library records one launch of it: a's one float captured.
  capture::Capture recorded;
  recorded.kernel = {"_Z6nospecPf", "nospec(float*)", ""};
  recorded.parameters = {{0, 0, 8, capture::ParameterKind::pointer, 0, 0, {}, ""}};
  recorded.allocations = {{0, 4, 0, 4, capture::Contents::captured, "blobs/a.bin"}};
  const auto folder = repo.path() / ".kforecast" / "captures" / capture::kernel_folder_name(recorded.kernel.mangled);
  testing::write_capture(folder, recorded, "nospec-0");

  const auto run = run_pr(repo, {"--format", "json"});
  INFO(run.out << run.err);
  CHECK(run.exit_status == 1);
  CHECK(e2e::read_report_kernels(run.out).gate == "fail");
  // The head writes 2 where the base writes 1: measured by replay, and failed as disagreeing.
  CHECK_THAT(run.out, Contains("measurement: replayed capture .kforecast/captures/"));  // relative to the repository
  CHECK_THAT(run.out, Contains("nospec-0.json (contents captured)"));
  CHECK_THAT(run.out, Contains("allocation 0: 1 of 1 elements differ"));
  CHECK_THAT(run.out, !Contains("no launch spec, so it cannot be run"));
}
