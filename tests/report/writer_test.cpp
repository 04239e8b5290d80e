// SPDX-License-Identifier: Apache-2.0
// Golden-file tests: the exact JSON and Markdown for a report with every change kind and
// decision, and names a hostile pull request could choose. To update after an intended change:
// KF_UPDATE_GOLDEN=1 build/release/tests/report/kf_report_tests
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include <catch2/catch.hpp>

#include "report_samples.hpp"

using namespace kforecast::report;

TEST_CASE("report: JSON golden file") {
  std::ostringstream out;
  make_json_writer(out)->write(sample_report());
  check_golden(out.str(), "sample.json");
  CHECK(out.str().find("\"forecast\": null") != std::string::npos);
  CHECK(out.str().find(R"("evil|`name`<b>@team\"\\")") != std::string::npos);
}

TEST_CASE("report: Markdown golden file") {
  std::ostringstream out;
  make_markdown_writer(out)->write(sample_report());
  check_golden(out.str(), "sample.md");
  CHECK(out.str().find("| `evil\\|'name'<b>@team\"\\` |") != std::string::npos);  // literal in a code span
  CHECK(out.str().find("`sgemm_tiled<64, 64, 8>`") != std::string::npos);
}

TEST_CASE("report: an empty report") {
  Report empty{"0.1.0", "a", "b", GateVerdict::pass, {}, {}};
  std::ostringstream json, markdown;
  make_json_writer(json)->write(empty);
  make_markdown_writer(markdown)->write(empty);
  CHECK(json.str().find("\"kernels\": [],") != std::string::npos);
  CHECK(json.str().find("\"notes\": []") != std::string::npos);
  CHECK(markdown.str().find("no CUDA kernel changed") != std::string::npos);
}

TEST_CASE("report: the multiplexer writes every format in one pass") {
  std::ostringstream json, markdown;
  MultiWriter both;
  both.add(make_json_writer(json));
  both.add(make_markdown_writer(markdown));
  both.write(sample_report());
  std::ostringstream json_alone, markdown_alone;
  make_json_writer(json_alone)->write(sample_report());
  make_markdown_writer(markdown_alone)->write(sample_report());
  CHECK(json.str() == json_alone.str());
  CHECK(markdown.str() == markdown_alone.str());
}

TEST_CASE("report: notes outside code spans cannot inject HTML or mentions") {
  std::ostringstream out;
  make_markdown_writer(out)->write(sample_report());
  CHECK(out.str().find("<script>") == std::string::npos);
  CHECK(out.str().find("line break &lt;script&gt; @\u200bteam") != std::string::npos);
}

TEST_CASE("report: measured kernels and the GPU time, JSON and Markdown golden files") {
  std::ostringstream json, markdown;
  make_json_writer(json)->write(measured_report());
  make_markdown_writer(markdown)->write(measured_report());
  check_golden(json.str(), "measured.json");
  check_golden(markdown.str(), "measured.md");
  CHECK(json.str().find("\"ci_low\": 1.012") != std::string::npos);
  CHECK(json.str().find("\"gpu_time\": {\"spent_seconds\": 37.9") != std::string::npos);
  CHECK(markdown.str().find("| `slower_k` | 0.251x [0.248, 0.254] | regression | 10.00 us -> 39.80 us | 3.20 |") !=
        std::string::npos);
  CHECK(markdown.str().find("| `wrong_k` | not timed | failed | - | 0.60 |") != std::string::npos);
  CHECK(markdown.str().find("GPU time: 37.9 s spent measuring 4 of 20 changed kernels; about 35.1 s saved against "
                            "measuring all 20 (estimated at 3.6 s each, the median of this run's measurements).") !=
        std::string::npos);
  SECTION("when measuring cost more than the estimate for all, nothing is claimed saved") {
    Report costly = measured_report();
    costly.gpu_time->measurable = 5;
    costly.gpu_time->saved_seconds = 3.65 * 5 - 37.9;
    std::ostringstream text;
    make_markdown_writer(text)->write(costly);
    CHECK(text.str().find("; nothing saved against measuring all 5") != std::string::npos);
  }
}

TEST_CASE("report: a measurement that is not finite is null in JSON, never inf") {
  Report report = measured_report();
  report.kernels[3].measurement->ci_high = std::numeric_limits<double>::infinity();
  std::ostringstream json;
  make_json_writer(json)->write(report);
  CHECK(json.str().find("\"ci_high\": null") != std::string::npos);
  CHECK(json.str().find("inf") == std::string::npos);
}

TEST_CASE("report: a fallback forecast is labelled in JSON, Markdown and SARIF, its reason escaped") {
  Report report{"0.1.0", "a", "b", GateVerdict::pass, {}, {}};
  KernelEntry entry{"k", "k.cu", 3, Change::modified, Decision::trusted_forecast, KernelVerdict::pass, {}};
  ForecastEntry forecast;
  forecast.forecaster = "embedded";
  forecast.model = "ordinal logistic";
  forecast.bin = 5;
  forecast.bin_label = "minor speedup";
  forecast.fallback_for = "llm";
  forecast.fallback_reason = "HTTP 500: <b>|\"down\"";
  entry.forecast = forecast;
  report.kernels.push_back(entry);
  entry.name = "plain";
  entry.forecast->fallback_for.clear();
  entry.forecast->fallback_reason.clear();
  report.kernels.push_back(entry);

  std::ostringstream json, markdown, sarif;
  make_json_writer(json)->write(report);
  make_markdown_writer(markdown)->write(report);
  make_sarif_writer(sarif)->write(report);
  CHECK(json.str().find(R"("fallback": {"for": "llm", "reason": "HTTP 500: <b>|\"down\""})") != std::string::npos);
  CHECK(json.str().find(R"("fallback": null)") != std::string::npos);  // the other kernel's own forecast
  CHECK(markdown.str().find("| embedded (fallback: llm failed) `ordinal logistic` |") != std::string::npos);
  CHECK(markdown.str().find("**fallback** to the embedded forecaster because the llm forecast failed: HTTP 500: "
                            "&lt;b&gt;\\|\"down\"") != std::string::npos);
  CHECK(markdown.str().find("| embedded `ordinal logistic` |") != std::string::npos);
  // A passing kernel leaves no SARIF result, so the run's properties carry the label.
  CHECK(sarif.str().find(R"("forecastFallbacks": [{"kernel": "k", "file": "k.cu", "forecaster": "embedded", )"
                         R"("fallbackFor": "llm", "reason": "HTTP 500: <b>|\"down\""}])") != std::string::npos);
  CHECK(sarif.str().find("\"results\": []") != std::string::npos);
}
