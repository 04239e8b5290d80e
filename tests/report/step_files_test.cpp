// SPDX-License-Identifier: Apache-2.0
// The step summary stays within GitHub's 1 MiB per step (GitHub drops a larger one whole): a
// report of 200,000 kernels and 20 MB notes is cut with a note that says what was cut and where the
// full report is, and what the file already held counts.
#include "report/step_files.hpp"

#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::report;
using Catch::Matchers::Contains;

namespace {

std::string read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

Report huge_report() {
  Report report{"0.1.0", "aaaa", "bbbb", GateVerdict::fail, {}, {std::string(20 << 20, 'n')}};
  for (int i = 0; i < 200000; ++i)
    report.kernels.push_back({fmt::format("kernel_{}", i),
                              "src/k.cu",
                              1,
                              Change::modified,
                              Decision::forecast_only,
                              KernelVerdict::warn,
                              {"unverified: not measured: no GPU"}});
  return report;
}

}  // namespace

TEST_CASE("step files: the summary of a huge report stays within GitHub's limit and says what was cut") {
  const testing::TempDir dir;
  const auto summary = dir.path() / "summary.md", output = dir.path() / "output";
  const auto env = fixed_environment({{"GITHUB_STEP_SUMMARY", summary.string()}, {"GITHUB_OUTPUT", output.string()}});
  REQUIRE(write_step_report(huge_report(), env, "report.json (--output)"));
  const std::string text = read(summary);
  CHECK(text.size() <= github_summary_limit);
  CHECK(github_summary_limit < std::size_t{1} << 20);  // a margin under GitHub's 1 MiB
  // (find, not Contains: a failure must not print megabytes)
  CHECK(text.starts_with("## kforecast: fail"));
  CHECK(text.find("| `kernel_0` |") != std::string::npos);
  CHECK(text.find("**This report is longer than a step summary holds (1000000 bytes), so it was cut here: ") !=
        std::string::npos);
  CHECK(
      text.ends_with("lines are left out (the rest of its tables and notes).** The full report: report.json "
                     "(--output)\n"));
  // The outputs are whole.
  CHECK_THAT(read(output), Contains("verdict=fail\n"));
}

TEST_CASE("step files: what the summary already holds counts against the limit") {
  const testing::TempDir dir;
  const auto summary = dir.path() / "summary.md";
  std::ofstream(summary, std::ios::binary) << std::string(github_summary_limit - 4000, 'x') << "\n";
  const auto env = fixed_environment({{"GITHUB_STEP_SUMMARY", summary.string()}});
  REQUIRE(write_step_report(huge_report(), env));
  const std::string text = read(summary);
  CHECK(text.size() <= github_summary_limit);
  CHECK(text.ends_with(fmt::format("The full report: {}\n", full_report_elsewhere)));

  // Full: nothing more is appended, and that is not an error.
  std::ofstream(summary, std::ios::binary) << std::string(github_summary_limit, 'x');
  REQUIRE(write_step_report(huge_report(), env));
  CHECK(read(summary).size() == github_summary_limit);
}

TEST_CASE("step files: a report that fits is appended whole, and every summary write is bounded") {
  const testing::TempDir dir;
  const auto summary = dir.path() / "summary.md";
  const auto env = fixed_environment({{"GITHUB_STEP_SUMMARY", summary.string()}});
  REQUIRE(append_step_summary(env, "## small\n", "x"));
  CHECK(read(summary) == "## small\n");
  // Text for the summary through append_step_file is bounded the same way.
  REQUIRE(append_step_file(env, "GITHUB_STEP_SUMMARY", std::string(3 << 20, 'y') + "\n" + std::string(10, 'z')));
  CHECK(read(summary).size() <= github_summary_limit);
}
