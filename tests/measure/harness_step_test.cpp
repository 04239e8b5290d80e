// SPDX-License-Identifier: Apache-2.0
// The measuring step's harness branch over fakes: a kernel without a launch spec that a
// [[harness.map]] names is measured through the harness (no GPU needed), decided and reported as
// the runner's measurement; a kernel with a spec, one no map names, revisions that are not
// commits and a harness that fails each take their own way, and none passes silently.
#include <catch2/catch.hpp>

#include "gate/harness_step.hpp"
#include "gate/run_gate.hpp"
#include "support/run_gate_harness.hpp"

using namespace kforecast;
using namespace kforecast::gate;
using namespace kforecast::measure;
using namespace kforecast::test;
using Catch::Matchers::Contains;

namespace {

// The kernel without its `// kforecast:` block.
std::string bare_kernel(const std::string& name, const std::string& body) {
  const std::string text = kernel_file(name, body);
  return text.substr(text.find("__global__"));
}

constexpr std::string_view harness_config = R"([[harness]]
name = "cpu"
run = "bench '{filter}'"
format = "simple"

[[harness.map]]
kernels = ["scale"]
benchmarks = "BM_Scale"
)";

struct Scenario {
  Harness h;
  std::vector<std::string> asked;  // the filters the fake harness was asked for
  Scenario(bool with_spec, Result<bench::Measurement> answer) {
    const auto file = [&](const std::string& body) {
      return with_spec ? kernel_file("scale", body) : bare_kernel("scale", body);
    };
    h.base_files = {{"k.cu", file("y[i] = x[i] * 2.0f;")}};
    h.head_files = {{"k.cu", file("y[i] = x[i] * x[i] * 2.0f;")}};
    h.answer = [](const std::string&) { return forecasters::KernelForecast{forecast_of(0.6, 0.3), "", "", {}}; };
    h.config_text = std::string(harness_config);
    h.env = [](std::string_view name) {
      return name == "HOME" ? std::optional<std::string>("/home/ci") : std::optional<std::string>();
    };
    h.base_revision = "0123456789abcdef0123456789abcdef01234567";
    h.head_revision = "89abcdef0123456789abcdef0123456789abcdef";
    h.measure_with_harness = [this, answer](const harness::HarnessRequest& request, const harness::HarnessProgress&) {
      asked.push_back(request.map.benchmarks);
      CHECK(request.base_commit == h.base_revision);
      CHECK(request.head_commit == h.head_revision);
      CHECK(request.cache == "/home/ci/.cache/kforecast/harness");
      return answer;
    };
  }
};

}  // namespace

TEST_CASE("harness step: a mapped kernel without a spec is measured through the harness, without a GPU") {
  auto regression = measured(bench::Verdict::regression, 0.7, 3.0);
  regression.gpu = "harness 'cpu' (simple): BM_Scale";
  Scenario s(false, regression);
  auto result = s.h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(s.asked == std::vector<std::string>{"BM_Scale"});
  CHECK(s.h.measurements_asked == 0);
  CHECK(entry.decision == report::Decision::measured);
  CHECK(entry.verdict == report::KernelVerdict::fail);
  CHECK_FALSE(entry.unverified);
  CHECK_THAT(entry.notes.back(), Contains("measured regression on harness 'cpu' (simple): BM_Scale"));
  CHECK(any_failed(result->run));
  REQUIRE(result->run.gpu_time);
  CHECK(result->run.gpu_time->measured == 1);
  CHECK(result->run.gpu_time->spent_seconds == 3.0);
}

TEST_CASE("harness step: a harness that cannot measure leaves the kernel unverified with its reason") {
  Scenario s(false, usage_error("harness 'cpu', head build, run 2: head-2.txt:1: no tab"));
  auto result = s.h.run();
  REQUIRE(result.has_value());
  const auto& entry = only_entry(*result);
  CHECK(entry.unverified);
  CHECK(entry.verdict == report::KernelVerdict::warn);
  CHECK_THAT(entry.notes.back(), Contains("the project's harness could not measure it: harness 'cpu', head build, "
                                          "run 2: head-2.txt:1: no tab"));
  CHECK(s.h.measurements_asked == 0);
}

TEST_CASE("harness step: without a home for the worktrees the kernel is unverified, saying so") {
  Scenario s(false, measured(bench::Verdict::same, 1.0, 1.0));
  s.h.env = [](std::string_view) { return std::optional<std::string>(); };
  auto result = s.h.run();
  REQUIRE(result.has_value());
  CHECK(only_entry(*result).unverified);
  CHECK_THAT(only_entry(*result).notes.back(), Contains("no cache folder for its worktrees (set HOME or XDG_CACHE_HOME)"));
  CHECK(s.asked.empty());
}

TEST_CASE("harness step: other kernels keep their way") {
  SECTION("a kernel with a launch spec goes to kforecast's runner") {
    Scenario s(true, measured(bench::Verdict::same, 1.0, 1.0));
    auto result = s.h.run();
    REQUIRE(result.has_value());
    CHECK(s.asked.empty());
    CHECK_THAT(only_entry(*result).notes.back(), Contains("no GPU here (fake)"));
  }
  SECTION("a kernel no map names goes to kforecast's runner") {
    Scenario s(false, measured(bench::Verdict::same, 1.0, 1.0));
    s.h.config_text = std::string(harness_config).replace(std::string(harness_config).find("[\"scale\"]"), 9,
                                                          "[\"gemm_*\"]");
    auto result = s.h.run();
    REQUIRE(result.has_value());
    CHECK(s.asked.empty());
    CHECK(only_entry(*result).unverified);
  }
  SECTION("revisions that are not commits: the harness is not used, and a note says why") {
    Scenario s(false, measured(bench::Verdict::same, 1.0, 1.0));
    s.h.head_revision = "index";
    auto result = s.h.run();
    REQUIRE(result.has_value());
    CHECK(s.asked.empty());
    CHECK(only_entry(*result).unverified);
    const auto& notes = result->run.notes;
    CHECK(std::ranges::any_of(notes, [](const std::string& note) {
      return note.find("harness 'cpu' not used: it builds revisions") != std::string::npos;
    }));
  }
}

TEST_CASE("harness step: has_launch_spec sees a comment block or a [[kernel]] table") {
  const auto job = [](const std::string& text) {
    gate::MeasureJob made;
    made.complete = true;
    made.base = {"k.cu", "scale", {{"k.cu", SharedText(text)}}, std::nullopt};
    made.head = made.base;
    return made;
  };
  auto plain = config::parse_config("", "t.toml");
  REQUIRE(plain.has_value());
  CHECK(has_launch_spec(job(kernel_file("scale", "y[i] = x[i];")), *plain));
  CHECK_FALSE(has_launch_spec(job(bare_kernel("scale", "y[i] = x[i];")), *plain));
  auto with_table = config::parse_config(
      "[[kernel]]\nname = \"scale\"\nsizes = [{ n = 1024 }]\ngrid = [\"ceil_div(n, 256)\"]\nblock = [256]\n"
      "[kernel.args]\nx = { count = \"n\", init = \"uniform(-1, 1)\" }\ny = { count = \"n\", role = \"out\" }\nn = \"n\"\n",
      "t.toml");
  REQUIRE(with_table.has_value());
  CHECK(has_launch_spec(job(bare_kernel("scale", "y[i] = x[i];")), *with_table));
}
