// SPDX-License-Identifier: Apache-2.0
// run_gate where the sandbox does not hold (gate/head_code_policy.hpp): an untrusted author's head
// is neither compiled nor measured, each kernel is forecast from source and the run's warning says
// why, once; a trusted author's head is compiled and measured as before, with a note of what was
// not confined.
#include <catch2/catch.hpp>

#include "gate/head_code_policy.hpp"
#include "gate/run_gate.hpp"
#include "support/run_gate_harness.hpp"
#include "support/sandbox_statuses.hpp"

using namespace kforecast;
using namespace kforecast::gate;
using namespace kforecast::test;
using Catch::Matchers::Contains;

namespace {

const git::ChangeAuthor fork_author{git::AuthorTrust::untrusted, "a fork (mallory/kernels)"};
const git::ChangeAuthor member{git::AuthorTrust::trusted, "author_association MEMBER"};

// Two changed kernels that need a GPU measurement (the fake forecast is unsure), a GPU that
// measures, and the author and sandbox a test sets.
Harness two_kernels(const git::ChangeAuthor& author, const SandboxStatus& sandbox) {
  Harness h;
  h.base_files = {{"a.cu", kernel_file("first", "y[i] = x[i] * 2.0f;")},
                  {"b.cu", kernel_file("second", "y[i] = x[i] * 3.0f;")}};
  h.head_files = {{"a.cu", kernel_file("first", "y[i] = x[i] * x[i] * 2.0f;")},
                  {"b.cu", kernel_file("second", "y[i] = x[i] * x[i] * 3.0f;")}};
  h.answer = [](const std::string&) { return forecasters::KernelForecast{forecast_of(0.4, 0.3), "", "", {}}; };
  h.no_gpu.reset();
  h.author = author;
  h.sandbox = sandbox;
  return h;
}

bool any_note(const std::vector<std::string>& notes, std::string_view text) {
  return std::ranges::any_of(notes, [&](const std::string& note) { return note.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("run_gate sandbox: an untrusted author's head is not compiled or run where Landlock is missing") {
  Harness h = two_kernels(fork_author, testing::sandbox_without_landlock());
  auto result = h.run();
  REQUIRE(result.has_value());
  CHECK(h.compiles == 0);            // the compiler was never even loaded
  CHECK(h.measurements_asked == 0);  // nor the head run on the GPU
  CHECK(h.forecasts_asked == 2);     // each kernel forecast, from its source
  const GateRun& run = result->run;
  REQUIRE(run.warnings.size() == 1);  // said once, for every kernel
  CHECK_THAT(run.warnings[0].headline, Contains("not compiled or run: the change's author is not trusted (a fork "
                                                "(mallory/kernels)) and this runner cannot sandbox its code"));
  CHECK_THAT(run.warnings[0].detail, Contains("Landlock unavailable"));
  CHECK_THAT(run.warnings[0].detail, Contains("run kforecast on Linux 5.13 or later with Landlock enabled"));
  CHECK_THAT(h.warnings.str(), Contains("kforecast: warning: not compiled or run"));
  REQUIRE(run.cases.size() == 2);
  for (const auto& c : run.cases) {
    CHECK(c.entry.decision == report::Decision::forecast_only);
    CHECK(c.entry.forecast.has_value());
    CHECK(c.entry.build.empty());
    CHECK_FALSE(any_note(c.entry.notes, "machine code"));
    CHECK_FALSE(any_note(c.entry.notes, "Landlock"));  // not repeated per kernel
    CHECK(c.entry.unverified);
    CHECK(c.entry.verdict == report::KernelVerdict::warn);  // policy.on_unverified's default: not a failure
    CHECK_THAT(c.entry.notes.back(), Contains("this runner cannot sandbox an untrusted author's code (the report's "
                                              "warning says why)"));
  }
  CHECK_FALSE(any_note(run.notes, "target sm_90"));
}

TEST_CASE("run_gate sandbox: an untrusted author's head is not compiled or run where the network is not blocked") {
  Harness h = two_kernels(fork_author, testing::sandbox_without_network());
  auto result = h.run();
  REQUIRE(result.has_value());
  CHECK(h.compiles == 0);
  CHECK(h.measurements_asked == 0);
  REQUIRE(result->run.warnings.size() == 1);
  CHECK_THAT(result->run.warnings[0].detail, Contains("the network is not blocked"));
}

TEST_CASE("run_gate sandbox: a trusted author's head is compiled and measured, with a note of what was not confined") {
  Harness h = two_kernels(member, testing::sandbox_without_landlock());
  auto result = h.run();
  REQUIRE(result.has_value());
  CHECK(h.compiles == 1);
  CHECK(h.measurements_asked == 2);
  CHECK(result->run.warnings.empty());
  CHECK(any_note(result->run.notes, "not confined: the head was compiled and run here without the whole sandbox "
                                    "(Landlock unavailable"));
  CHECK(any_note(result->run.notes, "as its author is trusted (author_association MEMBER)"));
  for (const auto& c : result->run.cases) CHECK(c.entry.decision == report::Decision::measured);
}

TEST_CASE("run_gate sandbox: where the sandbox holds, an untrusted author's head is compiled and measured") {
  Harness h = two_kernels(fork_author, testing::sandbox_in_force());
  auto result = h.run();
  REQUIRE(result.has_value());
  CHECK(h.compiles == 1);
  CHECK(h.measurements_asked == 2);
  CHECK(result->run.warnings.empty());
  CHECK_FALSE(any_note(result->run.notes, "not confined"));
}

TEST_CASE("run_gate sandbox: the project's harness runs an untrusted author's head only where the sandbox holds") {
  for (const bool sandboxed : {true, false}) {
    INFO((sandboxed ? "sandboxed" : "without Landlock"));
    Harness h = two_kernels(fork_author, sandboxed ? testing::sandbox_in_force() : testing::sandbox_without_landlock());
    std::size_t harness_runs = 0;
    h.measure_with_harness = [&](const harness::HarnessRequest&, const harness::HarnessProgress&) {
      ++harness_runs;
      return Result<bench::Measurement>(measured(bench::Verdict::same, 1.0, 1.0));
    };
    // Kernels without a launch spec: a harness map takes them (gate/harness_step.hpp).
    const auto bare = [](const std::string& name, const std::string& body) {
      const std::string text = kernel_file(name, body);
      return text.substr(text.find("__global__"));
    };
    h.base_files = {{"a.cu", bare("first", "y[i] = x[i] * 2.0f;")}, {"b.cu", bare("second", "y[i] = x[i] * 3.0f;")}};
    h.head_files = {{"a.cu", bare("first", "y[i] = x[i] * x[i] * 2.0f;")},
                    {"b.cu", bare("second", "y[i] = x[i] * x[i] * 3.0f;")}};
    h.config_text = "[[harness]]\nname = \"cpu\"\nrun = \"bench '{filter}'\"\nformat = \"simple\"\n\n"
                    "[[harness.map]]\nkernels = [\"first\", \"second\"]\nbenchmarks = \"BM_All\"\n";
    h.env = [](std::string_view name) {
      return name == "HOME" ? std::optional<std::string>("/home/ci") : std::optional<std::string>();
    };
    h.base_revision = "0123456789abcdef0123456789abcdef01234567";
    h.head_revision = "89abcdef0123456789abcdef0123456789abcdef";
    auto result = h.run();
    REQUIRE(result.has_value());
    CHECK(harness_runs == (sandboxed ? 2U : 0U));
    CHECK(h.measurements_asked == 0);
  }
}

TEST_CASE("head code policy: who may run here, by author and sandbox") {
  CHECK(head_code_policy(fork_author, testing::sandbox_in_force()).runs);
  CHECK(head_code_policy(fork_author, testing::sandbox_in_force()).unconfined_note.empty());
  CHECK(head_code_policy(member, testing::sandbox_in_force()).unconfined_note.empty());
  CHECK_FALSE(head_code_policy(fork_author, SandboxStatus{}).runs);  // nothing known: nothing runs
  const auto refused = head_code_policy(fork_author, testing::sandbox_without_landlock());
  CHECK_FALSE(refused.runs);
  CHECK(refused.no_bench().set);
  CHECK(refused.unconfined_note.empty());
  const auto trusted = head_code_policy(member, testing::sandbox_without_network());
  CHECK(trusted.runs);
  CHECK_FALSE(trusted.no_bench().set);
  CHECK_THAT(trusted.unconfined_note, Contains("not confined:") && Contains("the network is not blocked"));
}
