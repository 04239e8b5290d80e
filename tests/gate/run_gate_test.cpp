// SPDX-License-Identifier: Apache-2.0
// run_gate over fakes (run_gate_harness.hpp): each tier, the budget, a failing or unbuildable
// forecaster, the fallback, the author's standing, and a missing compiler or GPU.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <catch2/catch.hpp>

#include "gate/run_gate.hpp"
#include "support/run_gate_harness.hpp"

using namespace kforecast;
using namespace kforecast::gate;
using namespace kforecast::test;
using Catch::Matchers::Contains;

TEST_CASE("run_gate: identical machine code settles the kernel before any forecast") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 3.0f;")}};  // the same length
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.decision == report::Decision::identical_code);
  CHECK(entry.verdict == report::KernelVerdict::pass);
  CHECK(h.forecasts_asked == 0);
  CHECK(h.measurements_asked == 0);
  const auto report = build_report(result->run);
  CHECK(report.verdict == report::GateVerdict::pass);
  CHECK(report.notes.front() == "revisions: a test");
}

TEST_CASE("run_gate: a sure forecast is trusted and nothing is measured") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.decision == report::Decision::trusted_forecast);
  CHECK(entry.verdict == report::KernelVerdict::pass);
  CHECK(h.forecasts_asked == 1);
  CHECK(result->to_measure.empty());
  CHECK(h.measurements_asked == 0);
  CHECK_THAT(entry.notes.back(), Contains("trusted forecast"));
}

TEST_CASE("run_gate: an unsure forecast needs the GPU, and without one the kernel is unverified") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string&) { return forecasters::KernelForecast{forecast_of(0.6, 0.3), "", "", {}}; };
  SECTION("policy.on_unverified = warn: the gate passes with a warning") {
    auto result = h.run();
    REQUIRE(result.has_value());
    const auto& entry = only_entry(*result);
    CHECK(entry.verdict == report::KernelVerdict::warn);
    CHECK(entry.unverified);
    CHECK_THAT(entry.notes.back(), Contains("unverified: not measured: no GPU here (fake)"));
    CHECK_FALSE(any_failed(result->run));
    REQUIRE(result->run.gpu_time);
    CHECK(result->run.gpu_time->note == "no GPU");
  }
  SECTION("policy.on_unverified = fail: the gate fails") {
    h.config_text = "[policy]\non_unverified = \"fail\"\n";
    auto result = h.run();
    REQUIRE(result.has_value());
    CHECK(only_entry(*result).verdict == report::KernelVerdict::fail);
    CHECK(build_report(result->run).verdict == report::GateVerdict::fail);
  }
  SECTION("stopped after the policy (a plan), nothing is measured and there is no GPU time") {
    auto result = h.run(GateStop::after_policy);
    REQUIRE(result.has_value());
    CHECK(result->to_measure == std::vector<std::size_t>{0});
    CHECK_FALSE(result->run.gpu_time);
    CHECK(h.measurements_asked == 0);
  }
}

TEST_CASE("run_gate: measured riskiest first until the GPU budget is spent") {
  Harness h;
  h.base_files = {{"a.cu", kernel_file("low_risk", "y[i] = x[i] * 2.0f;")},
                  {"b.cu", kernel_file("high_risk", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"a.cu", kernel_file("low_risk", "y[i] = x[i] * x[i] * 2.0f;")},
                  {"b.cu", kernel_file("high_risk", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string& kernel) {
    return forecasters::KernelForecast{forecast_of(kernel == "high_risk" ? 0.8 : 0.4, 0.3), "", "", {}};
  };
  h.no_gpu.reset();
  std::vector<std::string> measured_kernels;
  h.measure = [&](const measure::ChildRequest& request) {
    measured_kernels.push_back(request.pair.candidate.substr(request.pair.candidate.rfind(':') + 1));
    return Result<bench::Measurement>(measured(bench::Verdict::regression, 0.5, 6.0));
  };
  h.config_text = "[policy]\ngpu_budget_seconds = 5\n";
  auto result = h.run();
  REQUIRE(result.has_value());
  REQUIRE(measured_kernels == std::vector<std::string>{"high_risk"});
  const auto& cases = result->run.cases;
  REQUIRE(cases.size() == 2);
  const auto& high = cases[0].entry.name == "high_risk" ? cases[0].entry : cases[1].entry;
  const auto& low = cases[0].entry.name == "low_risk" ? cases[0].entry : cases[1].entry;
  CHECK(high.decision == report::Decision::measured);
  CHECK(high.verdict == report::KernelVerdict::fail);
  CHECK(low.unverified);
  CHECK_THAT(low.notes.back(), Contains("the GPU budget is spent"));
  CHECK(any_failed(result->run));
  REQUIRE(result->run.gpu_time);
  CHECK(result->run.gpu_time->measured == 1);
}

TEST_CASE("run_gate: a forecaster that fails for a kernel is a run warning, and the kernel needs the GPU") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string&) {
    return forecasters::KernelForecast{std::nullopt, "the endpoint answered 503", "no forecast: the endpoint answered 503", {}};
  };
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK_FALSE(entry.forecast);
  CHECK(std::ranges::find(entry.notes, "no forecast: the endpoint answered 503") != entry.notes.end());
  CHECK(entry.unverified);
  REQUIRE(result->run.warnings.size() == 1);
  CHECK_THAT(result->run.warnings.front().headline, Contains("the fake forecaster failed for 1 of 1 kernel"));
  CHECK_THAT(h.warnings.str(), Contains("kforecast: warning: the fake forecaster failed"));
}

TEST_CASE("run_gate: a forecaster that cannot be built fails the run before any request") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.forecaster_fails_to_build = true;
  auto result = h.run();
  REQUIRE_FALSE(result.has_value());
  CHECK_THAT(result.error().message, Contains("endpoint.url is not set"));
  CHECK(h.forecasts_asked == 0);
}

TEST_CASE("run_gate: without a compiler the code is not compared, and the forecast still runs") {
  Harness h;
  h.has_compiler = false;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 3.0f;")}};
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.decision == report::Decision::trusted_forecast);
  CHECK(std::ranges::any_of(entry.notes, [](const std::string& note) {
    return note.starts_with("machine code not compared: NVRTC not found");
  }));
  CHECK(h.forecasts_asked == 1);
}

TEST_CASE("run_gate: a new kernel and a removed one are settled without a forecast") {
  Harness h;
  h.base_files = {{"old.cu", kernel_file("retired", "y[i] = x[i];")}};
  h.head_files = {{"new.cu", kernel_file("fresh", "y[i] = x[i];")}};
  auto result = h.run();
  REQUIRE(result.has_value());
  REQUIRE(result->run.cases.size() == 2);
  for (const auto& kernel : result->run.cases) {
    CHECK(kernel.entry.decision == report::Decision::skipped);
    CHECK(kernel.entry.verdict == report::KernelVerdict::pass);
  }
  CHECK(h.forecasts_asked == 0);
  CHECK(build_report(result->run).verdict == report::GateVerdict::pass);
}

TEST_CASE("run_gate: with forecast.fallback the stand-in's forecast decides a kernel the primary failed for") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string&) {
    return forecasters::KernelForecast{std::nullopt, "the endpoint timed out", "the endpoint timed out: the embedded forecast stands in",
                          {}};
  };
  h.stand_in = [](const std::string&) { return forecasters::KernelForecast{forecast_of(0.05, 0.9), "", "", {}}; };
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  REQUIRE(entry.forecast);
  CHECK(entry.forecast->fallback_for == "fake");
  CHECK(entry.decision == report::Decision::trusted_forecast);
  CHECK(h.stand_ins_asked == 1);
  REQUIRE(result->run.warnings.size() == 1);
  CHECK_THAT(result->run.warnings.front().detail, Contains("stood in"));
}

TEST_CASE("run_gate: an untrusted author's kernel is not passed on an LLM forecast alone") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string&) { return forecasters::KernelForecast{forecast_of(0.05, 0.9, "llm"), "", "", {}}; };
  h.author.trust = git::AuthorTrust::untrusted;
  h.author.reason = "a first-time contributor (test)";
  auto result = h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  // The embedded forecaster's second opinion was asked for; whatever it said, the LLM's sure
  // forecast alone did not pass the kernel.
  CHECK(result->run.cases.front().second_opinion.has_value());
  const bool passed_on_embedded = std::ranges::any_of(entry.notes, [](const std::string& note) {
    return note.starts_with("trusted on the embedded forecaster's forecast");
  });
  CHECK((entry.decision != report::Decision::trusted_forecast || passed_on_embedded));
  CHECK((entry.decision == report::Decision::trusted_forecast || entry.unverified));
  CHECK(std::ranges::none_of(entry.notes, [](const std::string& note) { return note.starts_with("trusted forecast:"); }));
}

TEST_CASE("run_gate: a trusted author's kernel may pass on the LLM's sure forecast") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.answer = [](const std::string&) { return forecasters::KernelForecast{forecast_of(0.05, 0.9, "llm"), "", "", {}}; };
  h.author.trust = git::AuthorTrust::trusted;
  auto result = h.run();
  REQUIRE(result.has_value());
  CHECK(only_entry(*result).decision == report::Decision::trusted_forecast);
  CHECK_FALSE(result->run.cases.front().second_opinion);
}

// A run past its wall budget (run.budget_seconds) leaves what is left unverified, with the
// budget's reason in each kernel's notes and in the report's first line, and still reports.
TEST_CASE("run_gate: past the run's wall budget nothing more is forecast or measured") {
  Harness h;
  h.base_files = {{"a.cu", kernel_file("first", "y[i] = x[i] * 2.0f;")},
                  {"b.cu", kernel_file("second", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"a.cu", kernel_file("first", "y[i] = x[i] * x[i] * 2.0f;")},
                  {"b.cu", kernel_file("second", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.no_gpu.reset();
  const auto now = std::chrono::steady_clock::now();
  h.deadline = RunDeadline(now - std::chrono::seconds(10), std::chrono::seconds(5));
  auto result = h.run();
  REQUIRE(result.has_value());
  CHECK(h.forecasts_asked == 0);
  CHECK(h.measurements_asked == 0);
  for (const auto& kernel : result->run.cases) {
    CHECK(kernel.entry.unverified);
    CHECK_FALSE(kernel.entry.forecast);
    CHECK_THAT(fmt::format("{}", fmt::join(kernel.entry.notes, "\n")),
               Contains("the run's wall budget of 5 s (run.budget_seconds) was spent: not forecast") &&
                   Contains("unverified: not measured: the run's wall budget of 5 s"));
  }
  REQUIRE(result->run.warnings.size() == 1);
  CHECK(result->run.warnings[0].headline ==
        "the run's wall budget of 5 s (run.budget_seconds) was spent: 2 kernels left unjudged");
  CHECK_THAT(h.warnings.str(), Contains("kforecast: warning: the run's wall budget of 5 s"));
  CHECK_FALSE(any_failed(result->run));
}

TEST_CASE("run_gate: a run deadline not reached changes nothing") {
  Harness h;
  h.base_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * 2.0f;")}};
  h.head_files = {{"k.cu", kernel_file("scale", "y[i] = x[i] * x[i] * 2.0f;")}};
  h.deadline = RunDeadline(std::chrono::steady_clock::now(), std::chrono::seconds(3600));
  auto result = h.run();
  REQUIRE(result.has_value());
  CHECK(only_entry(*result).decision == report::Decision::trusted_forecast);
  CHECK(result->run.warnings.empty());
}

TEST_CASE("run_gate: kernels whose text only moved are named in one note, not one note each") {
  Harness h;
  std::string base, head;
  for (int i = 0; i < 12; ++i) {
    const std::string name = fmt::format("k{}", i);
    base += kernel_file(name, "y[i] = x[i] * 2.0f;");
    head += kernel_file(name, "y[i] = x[i] * 2.0f;  // comment");
  }
  h.base_files = {{"k.cu", base}};
  h.head_files = {{"k.cu", head}};
  auto result = h.run();
  REQUIRE(result.has_value());
  CHECK(result->run.cases.empty());
  const auto& notes = result->run.notes;
  const auto counted = std::ranges::count_if(notes, [](const std::string& note) { return note.find("comments or whitespace only") != std::string::npos; });
  INFO(fmt::format("{}", fmt::join(notes, "\n")));
  CHECK(counted == 1);
  CHECK(std::ranges::any_of(notes, [](const std::string& note) {
    return note.starts_with("12 kernels: comments or whitespace only: k.cu: k0, k.cu: k1") && note.ends_with(" and 4 more");
  }));
}

TEST_CASE("run_gate: the forecasters hear what changed beyond a kernel's text, and whether its text changed at all") {
  Harness h;
  h.base_files = {{"k.cu", "#define SCALE 2.0f\n" + kernel_file("scale", "y[i] = x[i] * SCALE;")}};
  h.head_files = {{"k.cu", "#define SCALE 3.5f\n" + kernel_file("scale", "y[i] = x[i] * SCALE + 1.0f;")}};
  auto result = h.run();
  REQUIRE(result.has_value());
  REQUIRE(h.forecast_requests.size() == 1);
  const auto& changes = h.forecast_requests[0].changes;
  CHECK(std::ranges::find(changes, "macro SCALE changed") != changes.end());
  CHECK(std::ranges::find(changes, "the kernel's own source changed") == changes.end());  // the text shows it
  CHECK(std::ranges::any_of(changes, [](const std::string& c) { return c.starts_with("machine code differs for"); }));
  CHECK_FALSE(h.forecast_requests[0].text_unchanged);
}
