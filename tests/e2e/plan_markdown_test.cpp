// SPDX-License-Identifier: Apache-2.0
// Every string field of a plan and of a shard's results, fed the injection corpus, through
// `report --merge`: its Markdown (standard output) and the step summary render, with cmark-gfm and
// GitHub's extensions, to exactly the elements of the same merge of a clean plan, and nothing
// GitHub's text filters would link; its text view starts no line with a workflow command.
#include <functional>
#include <sstream>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "plan_forged.hpp"
#include "support/gfm_render.hpp"
#include "support/markdown_corpus.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using kforecast::testing::github_would_link;
using kforecast::testing::html_elements;
using kforecast::testing::injection_corpus;
using kforecast::testing::render_gfm;
namespace fs = std::filesystem;

namespace {

// What a merge needs besides the plan: the results' strings.
struct Hostile {
  plan::Plan plan = two_kernel_plan();
  std::string reason = "the candidate disagrees with the reference";
  std::string note = "SM clock steady";
  std::string shard_note;
};

// Every string field of the plan and the results, as places to write. The revisions come first:
// the report shows only their first 12 characters, so they take an injection alone.
constexpr std::size_t revisions = 2;
std::vector<std::function<std::string&(Hostile&)>> string_fields() {
  using Field = std::function<std::string&(Hostile&)>;
  std::vector<Field> fields{[](Hostile& h) -> std::string& { return h.plan.report.base; },
                            [](Hostile& h) -> std::string& { return h.plan.report.head; },
                            [](Hostile& h) -> std::string& { return h.plan.kforecast_version; },
                            [](Hostile& h) -> std::string& { return h.plan.config_name; },
                            [](Hostile& h) -> std::string& { return h.plan.ledger; },
                            [](Hostile& h) -> std::string& { return h.plan.report.version; },
                            [](Hostile& h) -> std::string& { return h.plan.report.notes[0]; },
                            [](Hostile& h) -> std::string& { return h.plan.report.warnings[0].headline; },
                            [](Hostile& h) -> std::string& { return h.plan.report.warnings[0].detail; },
                            [](Hostile& h) -> std::string& { return h.plan.jobs[0].base.file; },
                            [](Hostile& h) -> std::string& { return h.plan.jobs[0].head.kernel; },
                            [](Hostile& h) -> std::string& { return h.reason; },
                            [](Hostile& h) -> std::string& { return h.note; },
                            [](Hostile& h) -> std::string& { return h.shard_note; }};
  for (std::size_t k = 0; k < 2; ++k) {
    const auto kernel = [k](Hostile& h) -> report::KernelEntry& { return h.plan.report.kernels[k]; };
    fields.push_back([=](Hostile& h) -> std::string& { return kernel(h).name; });
    fields.push_back([=](Hostile& h) -> std::string& { return kernel(h).file; });
    fields.push_back([=](Hostile& h) -> std::string& { return kernel(h).notes[0]; });
    fields.push_back([=](Hostile& h) -> std::string& { return kernel(h).build; });
    fields.push_back([=](Hostile& h) -> std::string& { return kernel(h).base_kernel; });
  }
  for (std::string report::ForecastEntry::*member :
       {&report::ForecastEntry::forecaster, &report::ForecastEntry::model, &report::ForecastEntry::bin_label,
        &report::ForecastEntry::rationale, &report::ForecastEntry::prompt_version, &report::ForecastEntry::fallback_for,
        &report::ForecastEntry::fallback_reason})
    fields.push_back([=](Hostile& h) -> std::string& { return (*h.plan.report.kernels[0].forecast).*member; });
  return fields;
}

struct Merged {
  std::string markdown, summary, text;
};

Merged merge(const Hostile& hostile) {
  const testing::TempDir dir;
  const fs::path plan = dir.path() / "plan.json", results = dir.path() / "results.json";
  const fs::path summary = dir.path() / "summary.md";
  const std::string plan_text = plan::plan_json(hostile.plan);
  write_file(plan, plan_text);
  plan::ShardResults shard = failed_results(plan_text, hostile.reason, hostile.note);
  shard.note = hostile.shard_note;
  write_file(results, plan::results_json(shard));
  Merged merged;
  auto markdown = run_kforecast({"report", "--merge", plan.string(), results.string(), "--format", "md"}, dir.path(),
                                {"GITHUB_STEP_SUMMARY=" + summary.string()});
  INFO(markdown.err);
  REQUIRE(markdown.status == 1);  // the failed measurement fails the gate
  merged.markdown = markdown.out;
  merged.summary = read_file(summary);
  merged.text =
      run_kforecast({"report", "--merge", plan.string(), results.string(), "--format", "text"}, dir.path()).out;
  return merged;
}

void check_no_line_starts_a_command(const std::string& text) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    INFO("line: " << line);
    CHECK_FALSE(line.substr(std::min(line.find_first_not_of(" \t\r"), line.size())).starts_with("::"));
  }
}

}  // namespace

TEST_CASE("e2e: every string of a forged plan and its results renders as text in the merged report") {
  const Merged clean = merge(Hostile{});
  const std::string clean_markdown = html_elements(render_gfm(clean.markdown));
  const std::string clean_summary = html_elements(render_gfm(clean.summary));
  REQUIRE_THAT(clean_markdown, Contains("table") && !Contains("img"));
  const auto corpus = injection_corpus();
  const auto fields = string_fields();
  // Each round gives every field a different string of the corpus; over all rounds every field
  // gets every string.
  for (std::size_t round = 0; round < corpus.size(); ++round) {
    Hostile hostile;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      std::string& value = fields[i](hostile);
      const std::string& injection = corpus[(i + round) % corpus.size()];
      value = i < revisions ? injection : fmt::format("{} {} end", value, injection);
    }
    const Merged merged = merge(hostile);
    INFO("round " << round << ":\n" << merged.markdown);
    const std::string markdown_html = render_gfm(merged.markdown);
    CHECK(html_elements(markdown_html) == clean_markdown);
    CHECK_FALSE(github_would_link(markdown_html));
    const std::string summary_html = render_gfm(merged.summary);
    CHECK(html_elements(summary_html) == clean_summary);
    CHECK_FALSE(github_would_link(summary_html));
    check_no_line_starts_a_command(merged.text);
  }
}

TEST_CASE("e2e: a compile log with workflow commands in a merged report's text starts no line with one") {
  Hostile hostile;
  hostile.plan.report.kernels[0].notes = {
      "the head does not compile for sm_90:\nsrc/settle.cu(3): error\n::set-output name=x::y\n  ::add-mask::secret\n"
      "::stop-commands::tok"};
  hostile.reason = "compile failed:\n::error file=a.cu::forged";
  const Merged merged = merge(hostile);
  INFO(merged.text);
  check_no_line_starts_a_command(merged.text);
  CHECK_THAT(merged.text, Contains("| ::set-output name=x::y"));
}
