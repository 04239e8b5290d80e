// SPDX-License-Identifier: Apache-2.0
// Every string field of a report, fed hostile text, through every Markdown kforecast posts (the
// report, the PR comment's cut, the step summary), rendered by cmark-gfm with GitHub's extensions:
// the HTML has exactly the elements of the same report with plain words in those fields (no link,
// no image, no element kforecast did not write, no extra row, item or heading), and GitHub's own
// text filters find nothing to link (mentions, URLs, issue references, emoji).
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "base/environment.hpp"
#include "report/comment_fit.hpp"
#include "report/step_files.hpp"
#include "report/writer.hpp"
#include "support/gfm_render.hpp"
#include "support/markdown_corpus.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::report;
using Catch::Matchers::Contains;
using kforecast::testing::github_would_link;
using kforecast::testing::html_elements;
using kforecast::testing::injection_corpus;
using kforecast::testing::render_gfm;

namespace {

using Elements = std::string;

// One kernel of each kind the writer has a section for: a forecast with a fallback and a
// rationale, a measurement with a reason, a kernel unverified with notes and a build line; run
// notes, a warning and the GPU time.
Report template_report() {
  Report report{"0.1.0", "base-revision", "head-revision", GateVerdict::fail, {}, {"run note"}};
  report.warnings = {{"warning headline", "warning detail"}};
  KernelEntry forecast{"forecast-kernel",
                       "src/forecast.cu",
                       3,
                       Change::modified,
                       Decision::forecast_only,
                       KernelVerdict::warn,
                       {"unverified: forecast note"}};
  ForecastEntry f;
  f.forecaster = "embedded";
  f.model = "model-name";
  f.bin = 4;
  f.bin_label = "bin-label";
  f.confidence = 0.4;
  f.p_regression = 0.5;
  f.rationale = "rationale text";
  f.prompt_version = "prompt-version";
  f.fallback_for = "llm";
  f.fallback_reason = "fallback reason";
  forecast.forecast = f;
  forecast.unverified = true;
  KernelEntry measured{"measured-kernel",   "src/measured.cu", 7, Change::renamed, Decision::measured,
                       KernelVerdict::fail, {"measured note"}};
  measured.measurement = MeasurementEntry{0, 0, 0, 0, "failed", 0, 0, "gpu-name", 0.5, "measurement reason"};
  measured.build = "build line";
  measured.base_kernel = "src/old.cu:old-name";
  KernelEntry failed{"failed-kernel",
                     "src/failed.cu",
                     9,
                     Change::added,
                     Decision::skipped,
                     KernelVerdict::fail,
                     {"the head does not compile for sm_90: compile log"}};
  forecast.build = "forecast build line";
  failed.build = "failed build line";
  report.kernels = {forecast, measured, failed};
  report.gpu_time = GpuTime{0.5, 1, 3, std::nullopt, std::nullopt, "gpu-time note", "gpu unavailable"};
  return report;
}

// Every string field of a report, by name, as a place to write.
std::vector<std::pair<std::string, std::function<std::string&(Report&)>>> string_fields() {
  std::vector<std::pair<std::string, std::function<std::string&(Report&)>>> fields{
      {"version", [](Report& r) -> std::string& { return r.version; }},
      {"base", [](Report& r) -> std::string& { return r.base; }},
      {"head", [](Report& r) -> std::string& { return r.head; }},
      {"notes[0]", [](Report& r) -> std::string& { return r.notes[0]; }},
      {"warnings[0].headline", [](Report& r) -> std::string& { return r.warnings[0].headline; }},
      {"warnings[0].detail", [](Report& r) -> std::string& { return r.warnings[0].detail; }},
      {"gpu_time.note", [](Report& r) -> std::string& { return r.gpu_time->note; }},
      {"gpu_time.unavailable", [](Report& r) -> std::string& { return r.gpu_time->unavailable; }}};
  for (std::size_t k = 0; k < 3; ++k) {
    const auto kernel = [k](Report& r) -> KernelEntry& { return r.kernels[k]; };
    const std::string at = fmt::format("kernels[{}].", k);
    fields.push_back({at + "name", [=](Report& r) -> std::string& { return kernel(r).name; }});
    fields.push_back({at + "file", [=](Report& r) -> std::string& { return kernel(r).file; }});
    fields.push_back({at + "notes[0]", [=](Report& r) -> std::string& { return kernel(r).notes[0]; }});
    fields.push_back({at + "build", [=](Report& r) -> std::string& { return kernel(r).build; }});
    fields.push_back({at + "base_kernel", [=](Report& r) -> std::string& { return kernel(r).base_kernel; }});
  }
  const auto forecast = [](Report& r) -> ForecastEntry& { return *r.kernels[0].forecast; };
  for (const auto& [name, member] : std::vector<std::pair<std::string, std::string ForecastEntry::*>>{
           {"forecaster", &ForecastEntry::forecaster},
           {"model", &ForecastEntry::model},
           {"bin_label", &ForecastEntry::bin_label},
           {"rationale", &ForecastEntry::rationale},
           {"prompt_version", &ForecastEntry::prompt_version},
           {"fallback_for", &ForecastEntry::fallback_for},
           {"fallback_reason", &ForecastEntry::fallback_reason}})
    fields.push_back({"kernels[0].forecast." + name, [=](Report& r) -> std::string& { return forecast(r).*member; }});
  const auto measurement = [](Report& r) -> MeasurementEntry& { return *r.kernels[1].measurement; };
  fields.push_back(
      {"kernels[1].measurement.verdict", [=](Report& r) -> std::string& { return measurement(r).verdict; }});
  fields.push_back({"kernels[1].measurement.gpu", [=](Report& r) -> std::string& { return measurement(r).gpu; }});
  fields.push_back({"kernels[1].measurement.reason", [=](Report& r) -> std::string& { return measurement(r).reason; }});
  return fields;
}

std::string markdown_of(const Report& report) {
  std::ostringstream out;
  make_markdown_writer(out)->write(report);
  return out.str();
}

// The step summary written for `report`, through the file GitHub hands a step.
std::string step_summary_of(const Report& report) {
  const testing::TempDir dir;
  const auto path = dir.path() / "summary.md";
  const EnvLookup env = fixed_environment({{"GITHUB_STEP_SUMMARY", path.string()}});
  REQUIRE(write_step_report(report, env));
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// What GitHub shows of each way the report is posted.
std::vector<std::string> posted_html(const Report& report) {
  const std::string markdown = markdown_of(report);
  return {render_gfm(markdown), render_gfm(fit_for_comment(markdown, github_comment_limit, "https://ci.example/7")),
          render_gfm(step_summary_of(report))};
}

}  // namespace

TEST_CASE("markdown injection: every string field of a report, fed every injection, renders as text") {
  const std::vector<std::string> clean_html = posted_html(template_report());
  for (const std::string& html : clean_html) {
    REQUIRE_THAT(html, !Contains("<a") && !Contains("<img"));
    REQUIRE_FALSE(github_would_link(html));
  }
  std::vector<Elements> clean;
  for (const std::string& html : clean_html) clean.push_back(html_elements(html));
  for (const auto& [field, place] : string_fields()) {
    for (const std::string& injection : injection_corpus()) {
      Report report = template_report();
      std::string& value = place(report);
      // Around the field's own text, which keeps what the writer decides on it (a note that says
      // "unverified: ", a verdict's reason) and so the shape of the report; a revision alone, as
      // the report shows only its first 12 characters.
      value = field == "base" || field == "head" ? injection : fmt::format("{} {} end", value, injection);
      const std::vector<std::string> html = posted_html(report);
      for (std::size_t i = 0; i < html.size(); ++i) {
        INFO("field " << field << ", injection " << injection << ", posted as " << i);
        INFO(html[i]);
        CHECK(html_elements(html[i]) == clean[i]);
        CHECK_FALSE(github_would_link(html[i]));
      }
    }
  }
}

TEST_CASE("markdown injection: every field hostile at once, the report keeps its shape") {
  const auto corpus = injection_corpus();
  Report report = template_report();
  std::size_t i = 0;
  for (const auto& [field, place] : string_fields()) {
    std::string& value = place(report);
    value = fmt::format("{} {} end", value, corpus[i++ % corpus.size()]);
  }
  const std::vector<std::string> clean = posted_html(template_report());
  const std::vector<std::string> hostile = posted_html(report);
  for (std::size_t way = 0; way < clean.size(); ++way) {
    INFO(hostile[way]);
    CHECK(html_elements(hostile[way]) == html_elements(clean[way]));
    CHECK_FALSE(github_would_link(hostile[way]));
  }
}
