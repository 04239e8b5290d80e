// SPDX-License-Identifier: Apache-2.0
#include "report/comment_fit.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

using namespace kforecast::report;
using Catch::Matchers::Contains;
using Catch::Matchers::EndsWith;

namespace {
std::string long_report(int rows) {
  std::string text = "## kforecast: fail\n\n| kernel | verdict |\n|---|---|\n";
  for (int i = 0; i < rows; ++i) text += fmt::format("| `kernel_{}` | pass |\n", i);
  text += "\n<details><summary>Notes</summary>\n\n";
  for (int i = 0; i < rows; ++i) text += fmt::format("- note {} é\n", i);
  return text + "\n</details>\n";
}
}  // namespace

TEST_CASE("comment fit: a report that fits is unchanged") {
  const std::string report = long_report(3);
  CHECK(fit_for_comment(report, github_comment_limit, "x") == report);
}

TEST_CASE("comment fit: a long report keeps its head, fits, ends whole and links the full report") {
  const std::string report = long_report(2000);  // the table fits, the notes do not
  REQUIRE(report.size() > github_comment_limit);
  REQUIRE(report.find("<details>") < github_comment_limit);
  const std::string fitted = fit_for_comment(report, github_comment_limit, "https://ci.example/run/7");
  CHECK(fitted.size() <= github_comment_limit);
  CHECK(fitted.starts_with("## kforecast: fail\n"));
  CHECK_THAT(fitted, Contains("| `kernel_0` | pass |\n"));
  CHECK_THAT(fitted, EndsWith("The full report: https://ci.example/run/7\n"));
  // Cut inside the notes: the <details> is closed before the note, so the note shows.
  CHECK_THAT(fitted, Contains("</details>\n\n\n**The report is longer"));
}

TEST_CASE("comment fit: cut inside the table, and a tiny limit") {
  const std::string report = long_report(5000);
  const std::string fitted = fit_for_comment(report, 2000, "the step summary");
  CHECK(fitted.size() <= 2000);
  CHECK_THAT(fitted, Contains("| pass |\n\n\n**The report is longer"));  // a whole row, then the note
  CHECK_THAT(fit_for_comment(report, 10, "x"), Contains("The full report: x"));
}
