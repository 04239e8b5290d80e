// SPDX-License-Identifier: Apache-2.0
// Golden-file tests: the exact JSON and Markdown for a report with every change kind and
// decision, and names a hostile pull request could choose. To update after an intended change:
// KF_UPDATE_GOLDEN=1 build/release/tests/report/kf_report_tests
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>

#include <fmt/format.h>

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
  // Literal in a code span whose fence is longer than the backticks inside.
  CHECK(out.str().find("| ``evil\\|`name`<b>@team\"\\`` |") != std::string::npos);
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
  CHECK(out.str().find("line break \\<script\\> @\u200bteam") != std::string::npos);
  CHECK(out.str().find("&lt;") == std::string::npos);  // backslash escapes: the source reads as rendered
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
  CHECK(markdown.str().find("GPU time: 37.9 s spent measuring 4 of 20 changed kernels (44.8 s of wall time); about 35.1 s saved against "
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

TEST_CASE("report: a failed measurement has no speedup, and a broken base is not the head's failure") {
  Report report = measured_report();
  std::ostringstream failed_json;
  make_json_writer(failed_json)->write(report);
  // wrong_k failed: its measurement object carries nulls, not a speedup of 0 in bin 0.
  CHECK(failed_json.str().find("\"speedup\": null,\n        \"ci_low\": null,\n        \"ci_high\": null,\n"
                               "        \"bin\": null,\n        \"verdict\": \"failed\"") != std::string::npos);

  auto& broken = *report.kernels[2].measurement;
  broken.base_broken = true;
  broken.reason = "the reference (base) is broken: size n=1000: the reference a.cu:k wrote 4 bytes past 'y' (seed 1)";
  report.kernels[2].verdict = KernelVerdict::warn;
  report.kernels[2].unverified = true;
  std::ostringstream markdown;
  make_markdown_writer(markdown)->write(report);
  CHECK(markdown.str().find("| `wrong_k` | not timed | base broken, head not judged | - | 0.60 |") != std::string::npos);
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
                            "\\<b\\>\\|\"down\"") != std::string::npos);
  CHECK(markdown.str().find("| embedded `ordinal logistic` |") != std::string::npos);
  // A passing kernel leaves no SARIF result, so the run's properties carry the label.
  CHECK(sarif.str().find(R"("forecastFallbacks": [{"kernel": "k", "file": "k.cu", "forecaster": "embedded", )"
                         R"("fallbackFor": "llm", "reason": "HTTP 500: <b>|\"down\""}])") != std::string::npos);
  CHECK(sarif.str().find("\"results\": []") != std::string::npos);
}

TEST_CASE("report: the first line says how many kernels could not be judged, and the run's warnings") {
  const auto first_line = [](const Report& report) {
    std::ostringstream out;
    make_markdown_writer(out)->write(report);
    return out.str().substr(0, out.str().find('\n'));
  };
  Report report{"0.1.0", "a", "b", GateVerdict::pass, {}, {}};
  KernelEntry judged{"ok", "k.cu", 1, Change::modified, Decision::trusted_forecast, KernelVerdict::pass, {}};
  KernelEntry unjudged{"open", "k.cu", 9, Change::modified, Decision::forecast_only, KernelVerdict::warn, {}};
  unjudged.unverified = true;
  report.kernels = {judged};
  CHECK(summary(report) == "pass");
  CHECK(first_line(report) == "## kforecast: pass");
  report.kernels.push_back(unjudged);
  CHECK(unjudged_kernels(report) == 1);
  CHECK(first_line(report) == "## kforecast: pass, but 1 kernel could not be judged");
  report.kernels.push_back(unjudged);
  CHECK(summary(report) == "pass, but 2 kernels could not be judged");

  SECTION("under policy.on_unverified = fail the unjudged kernels are the failure") {
    for (auto& entry : report.kernels)
      if (entry.unverified) entry.verdict = KernelVerdict::fail;
    report.verdict = GateVerdict::fail;
    CHECK(unjudged_kernels(report) == 2);
    CHECK(summary(report) == "fail: 2 kernels could not be judged");
    report.kernels[0].verdict = KernelVerdict::fail;  // and a failure on evidence
    CHECK(summary(report) == "fail, and 2 kernels could not be judged");
  }
  SECTION("a warning's headline is on the first line, its detail below, in JSON and as a SARIF notification") {
    report.warnings.push_back({"the llm forecaster failed for 2 of 3 kernels", "HTTP 401: bad key"});
    CHECK(
        first_line(report) ==
        "## kforecast: pass, but 2 kernels could not be judged; warning: the llm forecaster failed for 2 of 3 kernels");
    std::ostringstream markdown, json, sarif;
    make_markdown_writer(markdown)->write(report);
    make_json_writer(json)->write(report);
    make_sarif_writer(sarif)->write(report);
    CHECK(markdown.str().find("> **Warning:** the llm forecaster failed for 2 of 3 kernels: HTTP 401: bad key\n") !=
          std::string::npos);
    CHECK(json.str().find("  \"summary\": \"pass, but 2 kernels could not be judged\",\n  \"unjudged\": 2,\n"
                          "  \"warnings\": [\n    \"the llm forecaster failed for 2 of 3 kernels: HTTP 401: bad key\"\n"
                          "  ],\n") != std::string::npos);
    CHECK(sarif.str().find("\"toolExecutionNotifications\": [{\"level\": \"warning\", \"message\": {\"text\": \"the "
                           "llm forecaster failed for 2 of 3 kernels: HTTP 401: bad key\"}}]") != std::string::npos);
    CHECK(sarif.str().find("\"summary\": \"pass, but 2 kernels could not be judged\", \"unjudged\": 2") !=
          std::string::npos);
  }
}

TEST_CASE("report: the terminal view, golden files") {
  std::ostringstream sample, measured;
  make_terminal_writer(sample, false)->write(sample_report());
  make_terminal_writer(measured, false)->write(measured_report());
  check_golden(sample.str(), "sample.txt");
  check_golden(measured.str(), "measured.txt");
  CHECK(sample.str().starts_with("kforecast: pass, but 2 kernels could not be judged\n"));
  CHECK(sample.str().find("\x1b") == std::string::npos);  // no colour asked
}

TEST_CASE("report: the terminal view shows each failure's reason unfolded and a shared note once") {
  Report report = measured_report();
  for (auto& entry : report.kernels) entry.notes.push_back("NVRTC not found (tried libnvrtc.so.13, and 8 more)");
  std::ostringstream out;
  make_terminal_writer(out, false)->write(report);
  const std::string text = out.str();
  CHECK(text.find("every kernel:\n  - NVRTC not found (tried libnvrtc.so.13, and 8 more)\n") != std::string::npos);
  CHECK(text.find("NVRTC not found") == text.rfind("NVRTC not found"));  // once
  // Every kernel that did not pass says why, under its own line.
  for (const auto& entry : report.kernels)
    if (entry.verdict != KernelVerdict::pass && entry.measurement && !entry.measurement->reason.empty())
      CHECK(text.find("why: measured " + entry.measurement->verdict + ": " + entry.measurement->reason) !=
            std::string::npos);
}

TEST_CASE("report: the terminal view gives a forecast's bin with its probability") {
  // "forecast bin 4 (minor slowdown)" read as a predicted slowdown where the model gave that bin
  // 20%, hardly above a uniform guess's 12.5%.
  Report report = sample_report();
  REQUIRE(!report.kernels.empty());
  KernelEntry& entry = report.kernels.front();
  entry.measurement.reset();
  entry.forecast = ForecastEntry{};
  entry.forecast->bin = 4;
  entry.forecast->bin_label = "minor slowdown";
  entry.forecast->confidence = 0.2;
  entry.forecast->p_regression = 0.49;
  std::ostringstream out;
  make_terminal_writer(out, false)->write(report);
  CHECK_THAT(out.str(), Catch::Matchers::Contains("forecast bin 4 (minor slowdown, 20%), P(regression) 0.49"));
}

TEST_CASE("report: the terminal view shows a build line shared by kernels of one unit once") {
  Report report = measured_report();
  std::size_t unjudged = 0;
  for (auto& entry : report.kernels)
    if (entry.verdict != KernelVerdict::pass) {
      entry.build = "nvcc 13.0 for sm_90, unit src/a.cu, context inferred from the tree (defines: A=1 B=2)";
      ++unjudged;
    }
  REQUIRE(unjudged >= 2);
  std::ostringstream out;
  make_terminal_writer(out, false)->write(report);
  const std::string text = out.str();
  CHECK(text.find("defines: A=1 B=2") == text.rfind("defines: A=1 B=2"));  // in full once
  CHECK(text.find("built as ") != std::string::npos);
}

TEST_CASE("report: the terminal view cannot be rewritten by escape sequences in a pull request's names") {
  Report report{"0.1.0", "a", "b", GateVerdict::fail, {}, {}};
  report.kernels.push_back({"k\x1b[2J\x1b]0;owned\x07", "x.cu", 1, Change::modified, Decision::forecast_only,
                            KernelVerdict::fail, {"note\x1b[31m red"}});
  std::ostringstream plain, coloured;
  make_terminal_writer(plain, false)->write(report);
  make_terminal_writer(coloured, true)->write(report);
  CHECK(plain.str().find('\x1b') == std::string::npos);
  CHECK(plain.str().find("k?[2J?]0;owned?") != std::string::npos);
  CHECK(plain.str().find("note?[31m red") != std::string::npos);
  // Colour is the writer's own: the verdict words, reset after each.
  CHECK(coloured.str().find("\x1b[1;31mfail\x1b[0m") != std::string::npos);
  CHECK(coloured.str().find("\x1b[1;31mFAIL\x1b[0m") != std::string::npos);
}

TEST_CASE("report: the terminal view says a machine-wide condition once, not in every kernel's reason") {
  const std::string no_gpu = "no GPU here (libcuda.so.1 not found (tried libcuda.so.1, libcuda.so))";
  Report report{"0.1.0", "a", "b", GateVerdict::pass, {}, {}};
  for (const char* name : {"k1", "k2", "k3"})
    report.kernels.push_back({name, "x.cu", 1, Change::modified, Decision::forecast_only, KernelVerdict::warn,
                              {fmt::format("unverified: not measured: {}; run `kforecast bench x.cu:{} --against a` on "
                                           "a GPU (policy.on_unverified = warn)",
                                           no_gpu, name)}});
  report.gpu_time = GpuTime{};
  report.gpu_time->note = "no GPU";
  report.gpu_time->unavailable = no_gpu;
  std::ostringstream out;
  make_terminal_writer(out, false)->write(report);
  const std::string text = out.str();
  CHECK(text.find("no measurement: " + no_gpu + "\n") != std::string::npos);
  CHECK(text.find(no_gpu) == text.rfind(no_gpu));  // once
  std::ostringstream coloured;
  make_terminal_writer(coloured, true)->write(report);
  CHECK(coloured.str().find("\x1b[1;33mno measurement:\x1b[0m " + no_gpu + "\n") != std::string::npos);
  CHECK(coloured.str().find("?[") == std::string::npos);  // the writer's own colour is not escaped away
  // Each kernel still says what to do about it, its own command included.
  CHECK(text.find("why: not measured: no GPU (see above); run `kforecast bench x.cu:k2 --against a` on a GPU") !=
        std::string::npos);
}

namespace {

// A head line quoted in a compile log that GitHub Actions would read as workflow commands if a
// line of output started with it.
const std::string workflow_command_log =
    "the head does not compile for sm_90:\n"
    "src/k.cu(3): error: expected a ';'\n"
    "::set-output name=x::y\n"
    "  ::add-mask::hunter2\n"
    "\t::error file=a.cu,line=1::forged\n"
    "::stop-commands::token\n";

// No line a runner would take for a command: its first characters but blanks are not "::".
void check_no_line_starts_a_command(const std::string& text) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    INFO("line: " << line);
    CHECK_FALSE(line.substr(std::min(line.find_first_not_of(" \t\r"), line.size())).starts_with("::"));
    start = end + 1;
  }
}

}  // namespace

TEST_CASE("report: the terminal view quotes a compile log: no line starts with a workflow command") {
  Report report{"0.1.0", "::a", "b", GateVerdict::fail, {}, {"::add-mask::run-note"}};
  report.warnings = {{"::warning::headline", "detail\n::error::forged"}};
  report.kernels.push_back({"::set-output name=k::v", "::x.cu", 1, Change::modified, Decision::skipped,
                            KernelVerdict::fail, {workflow_command_log, "::notice::note"}});
  report.kernels.back().build = "nvcc\n::group::build";
  report.gpu_time = GpuTime{};
  report.gpu_time->note = "::debug::x";
  report.gpu_time->unavailable = "no GPU\n::error::unavailable";
  for (const bool colour : {false, true}) {
    std::ostringstream out;
    make_terminal_writer(out, colour)->write(report);
    INFO(out.str());
    check_no_line_starts_a_command(out.str());
    // The log's lines are still there, quoted under the note.
    CHECK(out.str().find("| ::set-output name=x::y\n") != std::string::npos);
    CHECK(out.str().find("|   ::add-mask::hunter2\n") != std::string::npos);
  }
}
