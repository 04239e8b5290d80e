// SPDX-License-Identifier: Apache-2.0
// The plan and results files CI jobs hand each other: exact round trips (a merged report must be
// byte for byte the one pr writes), and bad input — truncated, not JSON, another schema or
// version, a wrong field — gives an error naming the file and the field, never a crash.
#include "plan/plan_file.hpp"

#include <catch2/catch.hpp>

#include "plan/shard_results.hpp"

using namespace kforecast;
using namespace kforecast::plan;
using Catch::Matchers::Contains;

namespace {

Plan sample_plan() {
  Plan plan;
  plan.kforecast_version = "0.1.0";
  plan.config_name = "abc:.kforecast.toml";
  plan.config_text = "[policy]\nmax_p_regression = 0.0\n# \"quoted\" \\ and a tab\t\n";
  plan.ledger = "/repo/.kforecast/ledger.jsonl";
  plan.shards = 2;
  plan.report = {"0.1.0", "aaaa", "bbbb", report::GateVerdict::pass, {}, {"revisions: --base HEAD~1"}, std::nullopt};
  report::ForecastEntry f;
  f.forecaster = "embedded";
  f.model = "ordinal-v1";
  f.bin = 4;
  f.bin_label = "minor slowdown";
  f.probabilities = {0.1, 0.2, 0.30000000000000004, 1.0 / 3, 0.01, 0.02, 0.03, 1e-17};
  f.confidence = 1.0 / 3;
  f.p_regression = 0.7000000000000001;
  f.rationale = "line one\nline two — ünïcode";
  f.raw_sum = 0.987654321;
  f.fallback_for = "llm";
  f.fallback_reason = "endpoint down";
  report::KernelEntry settle{"settle",
                             "src/settle.cu",
                             9,
                             report::Change::modified,
                             report::Decision::forecast_only,
                             report::KernelVerdict::warn,
                             {"needs a GPU measurement"},
                             f,
                             std::nullopt,
                             false};
  report::KernelEntry nospec{"nospec<float, 4>",
                             "src/settle.cu",
                             20,
                             report::Change::renamed,
                             report::Decision::forecast_only,
                             report::KernelVerdict::fail,
                             {},
                             std::nullopt,
                             std::nullopt,
                             true};
  report::KernelEntry same{"same",
                           "src/same.cu",
                           3,
                           report::Change::modified,
                           report::Decision::identical_code,
                           report::KernelVerdict::pass,
                           {"machine code identical"},
                           std::nullopt,
                           std::nullopt,
                           false};
  plan.report.kernels = {same, settle, nospec};
  plan.report.warnings = {{"the llm forecaster failed for 1 of 2 kernels", "HTTP 401: \"bad\" key"}};
  plan.to_measure = {1, 2};
  plan.jobs = {{2,
                true,
                {"src/settle.cu", "nospec<float, 4>", {{"src/settle.cu", "base text"}, {"src/h.cuh", "h"}}},
                {"src/settle.cu", "nospec<float, 4>", {{"src/settle.cu", "head text"}}}},
               {1, false, {}, {}}};
  return plan;
}

std::string replace_once(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

ShardResults sample_results() {
  ShardResults results;
  results.kforecast_version = "0.1.0";
  results.plan_hash = "0123456789abcdef0123456789abcdef";
  results.shard = 2;
  results.shards = 3;
  results.gpu = "NVIDIA H100 80GB HBM3";
  results.driver = "12.4";
  results.started = "2026-11-22T03:00:00Z";
  results.finished = "2026-11-22T03:01:00Z";
  bench::Measurement m;
  m.verdict = bench::Verdict::regression;
  m.interval = {0.125, 0.124, 0.126, 12};
  m.t_base_us = 10.5;
  m.t_head_us = 84;
  m.gpu = results.gpu;
  m.driver = "12.4";
  m.gpu_seconds = 1.25;
  m.regression_checks = 2;
  m.notes = {"SM clock steady"};
  results.kernels = {{4, m, ""}, {7, std::nullopt, "no launch spec, so it cannot be run"}};
  return results;
}

}  // namespace

TEST_CASE("plan: a plan reads back exactly as written") {
  const Plan plan = sample_plan();
  const std::string text = plan::plan_json(plan);
  auto read = plan::parse_plan_json(text, "plan.json");
  REQUIRE(read);
  CHECK(plan_json(*read) == text);
  CHECK(read->report.kernels[1].forecast->probabilities[3] == 1.0 / 3);  // exact, not rounded
  CHECK(read->report.kernels[1].forecast->p_regression == 0.7000000000000001);
  CHECK(read->report.kernels[2].unverified);
  // The run's warnings reach the merged report: a forecaster that failed at plan time stays said.
  REQUIRE(read->report.warnings.size() == 1);
  CHECK(read->report.warnings[0].detail == "HTTP 401: \"bad\" key");
  CHECK(read->config_text == plan.config_text);
  CHECK(read->jobs[0].base.files.size() == 2);
  CHECK_FALSE(read->jobs[1].complete);
  CHECK(plan::plan_hash(text) != plan::plan_hash(text + " "));
}

TEST_CASE("plan: a file text that several jobs share is written once") {
  plan::Plan plan = sample_plan();
  const SharedText file(std::string(100'000, 'x'));  // the file of many kernels to measure
  plan.jobs.clear();
  plan.to_measure.clear();
  for (std::size_t entry = 0; entry < 3; ++entry) {
    plan.to_measure.push_back(entry);
    plan.jobs.push_back(
        {entry, true, {"src/a.cu", "k", {{"src/a.cu", file}}}, {"src/a.cu", "k", {{"src/a.cu", file}}}});
  }
  const std::string text = plan::plan_json(plan);
  CHECK(text.size() < 110'000);  // once, not six times
  auto read = plan::parse_plan_json(text, "plan.json");
  REQUIRE(read);
  CHECK(read->jobs[2].head.files[0].second.str() == file.str());
  CHECK(read->jobs[0].base.files[0].second.shares_with(read->jobs[2].head.files[0].second));
  CHECK(plan_json(*read) == text);

  auto out_of_range = plan::parse_plan_json(replace_once(text, "\"text\": 0", "\"text\": 7"), "p.json");
  REQUIRE_FALSE(out_of_range);
  CHECK_THAT(out_of_range.error().message, Contains("an index into texts (it has 1)"));
}

TEST_CASE("plan: shard I of N takes every N-th kernel from the riskiest down") {
  plan::Plan plan;
  for (std::size_t i = 0; i < 5; ++i) plan.jobs.push_back({i * 10, true, {}, {}});
  const auto entries = [&](std::size_t index, std::size_t count) {
    std::vector<std::size_t> out;
    for (const auto& job : plan::shard_jobs(plan, index, count)) out.push_back(job.entry);
    return out;
  };
  CHECK(entries(1, 2) == std::vector<std::size_t>{0, 20, 40});
  CHECK(entries(2, 2) == std::vector<std::size_t>{10, 30});
  CHECK(entries(1, 1).size() == 5);
  CHECK(entries(4, 4) == std::vector<std::size_t>{30});
  CHECK(entries(6, 6).empty());
}

TEST_CASE("plan: bad plans are errors naming the file and the field") {
  const std::string text = plan::plan_json(sample_plan());
  SECTION("every truncation") {
    for (std::size_t size = 0; size < text.size(); size += 7) {
      auto read = plan::parse_plan_json(text.substr(0, size), "cut.json");
      // Trailing whitespace aside, a cut plan never reads.
      if (text.find_first_not_of(" \n", size) == std::string::npos) continue;
      REQUIRE_FALSE(read);
      CHECK_THAT(read.error().message, Contains("cut.json"));
      CHECK(read.error().exit_code == ExitCode::usage);
    }
  }
  SECTION("not a plan") {
    auto array = plan::parse_plan_json("[1, 2]", "p.json");
    REQUIRE_FALSE(array);
    CHECK_THAT(array.error().message, Contains("p.json: not a kforecast plan"));
    auto results = plan::parse_plan_json(plan::results_json(sample_results()), "r.json");
    REQUIRE_FALSE(results);
    CHECK_THAT(results.error().message, Contains("no \"kforecast_plan\" key"));
  }
  SECTION("another schema version") {
    auto newer = plan::parse_plan_json(replace_once(text, "\"kforecast_plan\": 2", "\"kforecast_plan\": 3"), "p.json");
    REQUIRE_FALSE(newer);
    CHECK_THAT(newer.error().message, Contains("p.json: plan schema 3 is not the one this kforecast reads (2)"));
  }
  SECTION("a wrong field") {
    auto line = plan::parse_plan_json(replace_once(text, "\"line\": 9", "\"line\": \"nine\""), "p.json");
    REQUIRE_FALSE(line);
    CHECK_THAT(line.error().message, Contains("p.json: malformed plan: report.kernels[1].line: expected"));
    auto decision = plan::parse_plan_json(replace_once(text, "\"forecast_only\"", "\"guessed\""), "p.json");
    REQUIRE_FALSE(decision);
    CHECK_THAT(decision.error().message, Contains("decision"));
    auto id = plan::parse_plan_json(replace_once(text, "\"id\": 2", "\"id\": 99"), "p.json");
    REQUIRE_FALSE(id);
    CHECK_THAT(id.error().message, Contains("measure[0].id"));
    auto twice = plan::parse_plan_json(replace_once(text, "\"id\": 1", "\"id\": 2"), "p.json");
    REQUIRE_FALSE(twice);
    CHECK_THAT(twice.error().message, Contains("each kernel once"));
    auto probabilities = plan::parse_plan_json(replace_once(text, ", 1e-17]", "]"), "p.json");
    REQUIRE_FALSE(probabilities);
    CHECK_THAT(probabilities.error().message, Contains("eight numbers"));
  }
}

TEST_CASE("results: read back as written, the measurement as the child's reader reads it") {
  const std::string text = plan::results_json(sample_results());
  auto read = plan::parse_results_json(text, "r.json");
  REQUIRE(read);
  CHECK(results_json(*read) == text);
  REQUIRE(read->kernels.size() == 2);
  REQUIRE(read->kernels[0].measurement);
  CHECK(read->kernels[0].measurement->verdict == bench::Verdict::regression);
  CHECK(read->kernels[0].measurement->regression_checks == 2);
  CHECK(read->kernels[0].measurement->gpu_seconds == 1.25);
  CHECK(read->kernels[1].unmeasured_reason == "no launch spec, so it cannot be run");

  SECTION("a broken base stays the base's on the way from the GPU job to the merge") {
    auto results = sample_results();
    auto broken = bench::failed_measurement("the reference (base) is broken: it wrote 4 bytes past 'y'", results.gpu);
    broken.blame = bench::Blame::reference;
    broken.gpu_seconds = 0.5;
    results.kernels[0].measurement = broken;
    auto merged = plan::parse_results_json(plan::results_json(results), "r.json");
    REQUIRE(merged);
    REQUIRE(merged->kernels[0].measurement);
    CHECK(merged->kernels[0].measurement->verdict == bench::Verdict::failed);
    CHECK(merged->kernels[0].measurement->blame == bench::Blame::reference);
  }
}

TEST_CASE("results: bad results files are errors naming the file and the field") {
  const std::string text = plan::results_json(sample_results());
  for (std::size_t size = 0; size + 2 < text.size(); size += 5) {
    auto read = plan::parse_results_json(text.substr(0, size), "cut.json");
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error().message, Contains("cut.json"));
  }
  auto version =
      plan::parse_results_json(replace_once(text, "\"kforecast_results\": 1", "\"kforecast_results\": 0"), "r.json");
  REQUIRE_FALSE(version);
  CHECK_THAT(version.error().message, Contains("r.json: results schema 0"));
  auto plan = plan::parse_results_json(plan::plan_json(sample_plan()), "r.json");
  REQUIRE_FALSE(plan);
  CHECK_THAT(plan.error().message, Contains("r.json: not kforecast results"));
  auto shard = plan::parse_results_json(replace_once(text, "\"shard\": 2", "\"shard\": 4"), "r.json");
  REQUIRE_FALSE(shard);
  CHECK_THAT(shard.error().message, Contains("r.json: malformed results: shard"));
  auto verdict = plan::parse_results_json(replace_once(text, "\"regression\"", "\"great\""), "r.json");
  REQUIRE_FALSE(verdict);
  CHECK_THAT(verdict.error().message, Contains("kernels[0].measurement"));
  auto silent = plan::parse_results_json(replace_once(text, "\"no launch spec, so it cannot be run\"", "\"\""), "r.json");
  REQUIRE_FALSE(silent);
  CHECK_THAT(silent.error().message, Contains("kernels[1].unmeasured: expected a reason"));
}

TEST_CASE("plan: nesting deeper than any plan is an error naming the file, not a stack overflow") {
  const std::string hostile = R"({"kforecast_plan": 2, "report": )" + std::string(1'000'000, '[');
  auto plan = plan::parse_plan_json(hostile, "plan.json");
  REQUIRE_FALSE(plan.has_value());
  CHECK_THAT(plan.error().message, Contains("plan.json: not a kforecast plan: not JSON (nested deeper than 256 levels"));
  auto results = plan::parse_results_json(std::string(100'000, '[') + std::string(100'000, ']'), "r.json");
  REQUIRE_FALSE(results.has_value());
  CHECK_THAT(results.error().message, Contains("r.json: not kforecast results: not JSON (nested deeper than"));
}
