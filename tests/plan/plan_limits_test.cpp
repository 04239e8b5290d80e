// SPDX-License-Identifier: Apache-2.0
// A plan is written where a pull request may have had a hand in it and read by trusted jobs: past
// its limits (the file's size, the kernels, each text field) it is refused before it costs
// memory, naming the field and the limit; and every compile argument it carries for a kernel
// passes the project's flag allow-list again, or the plan is refused naming the kernel.
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <catch2/catch.hpp>

#include "context/compile_context.hpp"
#include "plan/plan_arguments.hpp"
#include "plan/plan_file.hpp"

using namespace kforecast;
using namespace kforecast::plan;
using Catch::Matchers::Contains;

namespace {

report::KernelEntry kernel(std::string name) {
  return {std::move(name),
          "src/k.cu",
          1,
          report::Change::modified,
          report::Decision::forecast_only,
          report::KernelVerdict::warn,
          {"needs a GPU measurement"}};
}

// A plan of one kernel to measure, built by nvcc with `arguments` at both revisions.
Plan plan_building_with(std::vector<std::string> arguments) {
  Plan plan;
  plan.kforecast_version = "0.1.0";
  plan.config_name = "abc:.kforecast.toml";
  plan.report = {"0.1.0", "aaaa", "bbbb", report::GateVerdict::pass, {}, {}};
  plan.report.kernels = {kernel("settle")};
  plan.to_measure = {0};
  const SharedText text("__global__ void settle() {}\n");
  plan.jobs = {{0,
                true,
                {"src/k.cu", "settle", {{"src/k.cu", text}}, arguments},
                {"src/k.cu", "settle", {{"src/k.cu", text}}, arguments}}};
  return plan;
}

}  // namespace

TEST_CASE("plan limits: a plan larger than the limit is refused before it is parsed") {
  const std::string text = plan::plan_json(plan_building_with({})) + std::string((32 << 20) + 1, ' ');
  auto plan = plan::parse_plan_json(text, "plan.json");
  REQUIRE_FALSE(plan);
  CHECK(plan.error().exit_code == ExitCode::usage);
  CHECK_THAT(plan.error().message, Contains(fmt::format("plan.json: plan refused: it is {} bytes, more than the 32 "
                                                        "MiB a plan may be (security.max_plan_mib",
                                                        text.size())));
  plan::PlanLimits larger;
  larger.max_bytes = std::size_t{64} << 20;
  CHECK(parse_plan_json(text, "plan.json", larger));
}

TEST_CASE("plan limits: 200,000 kernels are refused, naming the field and the limit") {
  plan::Plan plan = plan_building_with({});
  plan.report.kernels.assign(200'000, kernel("k"));
  const std::string text = plan::plan_json(plan);
  plan::PlanLimits no_size_limit;
  no_size_limit.max_bytes = std::size_t{1} << 30;  // so the count is what refuses it
  auto read = plan::parse_plan_json(text, "plan.json", no_size_limit);
  REQUIRE_FALSE(read);
  CHECK_THAT(read.error().message,
             Contains("plan.json: plan refused: report.kernels: 200000 entries, more than the 5000 a plan may have"));
  // At the limit, it reads.
  plan.report.kernels.resize(plan::PlanLimits{}.max_kernels);
  CHECK(plan::parse_plan_json(plan_json(plan), "plan.json"));
}

TEST_CASE("plan limits: a 20 MB note is refused naming the field, and plan_json cuts its own long notes") {
  const std::string twenty_mb(20 << 20, 'n');
  const std::string forged = fmt::format(
      R"({{"kforecast_plan": 2, "kforecast": "0.1.0", "shards": 0, "no_bench": false, "ledger": "l",
  "config": {{"name": "c", "text": ""}},
  "report": {{"kforecast": "0.1.0", "base": "a", "head": "b", "verdict": "pass", "notes": [],
   "kernels": [{{"name": "k", "file": "k.cu", "line": 1, "change": "modified", "decision": "skipped",
    "verdict": "pass", "unverified": false, "build": "", "base_kernel": "", "notes": ["{}"], "forecast": null}}]}},
  "to_measure": [], "texts": [], "measure": []}})",
      twenty_mb);
  auto read = plan::parse_plan_json(forged, "plan.json");
  REQUIRE_FALSE(read);
  CHECK_THAT(read.error().message,
             Contains("report.kernels[0].notes[0]: 20971520 bytes, more than the 262144 a note may have"));
  for (const auto& [field, value] : std::vector<std::pair<std::string, std::string>>{
           {"report.base", std::string(20'000, 'b')}, {"report.kernels[0].name", std::string(20'000, 'k')}}) {
    std::string text = forged;
    const std::string key = field == "report.base" ? "\"base\": \"a\"" : "\"name\": \"k\"";
    text.replace(text.find(key), key.size(), key.substr(0, key.find(':')) + ": \"" + value + "\"");
    auto named = plan::parse_plan_json(text, "plan.json");
    REQUIRE_FALSE(named);
    CHECK_THAT(named.error().message, Contains(field + ": 20000 bytes, more than the 16384 a name may have"));
  }

  // A plan kforecast writes stays within the limits: a note longer than one may be is cut, saying so.
  plan::Plan plan = plan_building_with({});
  plan.report.kernels[0].notes = {"head does not compile: " + std::string(1 << 20, 'x')};
  auto written = plan::parse_plan_json(plan::plan_json(plan), "plan.json");
  REQUIRE(written);
  const std::string& note = written->report.kernels[0].notes[0];
  CHECK(note.size() <= plan::PlanLimits{}.max_note_bytes);
  CHECK(note.starts_with("head does not compile: xxx"));
  CHECK(note.ends_with(" ... (1048599 bytes cut for the plan)"));
}

TEST_CASE("plan arguments: the arguments kforecast writes for a kernel read back") {
  context::CompileContext context;
  context.include_dirs = {".", "include", "third_party/cutlass/include", "/usr/include"};
  context.defines = {{"USE_FAST", ""}, {"TILE", "64"}, {"MAX(a,b)", "((a)>(b)?(a):(b))"}};
  context.undefines = {"NDEBUG"};
  context.standard = "c++17";
  context.flags = {"--use_fast_math", "--extended-lambda", "-maxrregcount=64", "-Xptxas=-v"};
  const auto arguments = context::nvcc_arguments(context);
  CHECK(plan::check_build_arguments(arguments));
  auto plan = plan::parse_plan_json(plan::plan_json(plan_building_with(arguments)), "plan.json");
  REQUIRE(plan);
  CHECK(*plan->jobs[0].head.build_arguments == arguments);
}

TEST_CASE("plan arguments: a forged plan cannot smuggle an argument past the allow-list") {
  for (const std::vector<std::string>& forged :
       std::vector<std::vector<std::string>>{{"-ccbin", "/tmp/evil"},
                                             {"-ccbin=/tmp/evil"},
                                             {"--compiler-bindir", "/tmp/evil"},
                                             {"--options-file", "/etc/passwd"},
                                             {"@/tmp/args"},
                                             {"-include", "/etc/passwd"},
                                             {"-Xcompiler", "-fplugin=/tmp/evil.so"},
                                             {"-o", "/home/runner/.bashrc"},
                                             {"-I/etc"},
                                             {"-I../../.git"},
                                             {"-Xptxas=--load-plugin"},
                                             {"-DX=1", "/etc/passwd"},
                                             {"--run"},
                                             {"-fplugin=/tmp/evil.so"}}) {
    INFO("arguments: " << fmt::format("{}", fmt::join(forged, " ")));
    auto plan = plan::parse_plan_json(plan::plan_json(plan_building_with(forged)), "plan.json");
    REQUIRE_FALSE(plan);
    CHECK(plan.error().exit_code == ExitCode::usage);
    CHECK_THAT(plan.error().message, Contains("plan.json: plan refused: measure[0].base.build_arguments, the "
                                              "compile arguments of kernel `settle`, fail the project's flag "
                                              "allow-list ("));
  }
  auto ccbin = plan::parse_plan_json(plan::plan_json(plan_building_with({"-ccbin", "/tmp/evil"})), "plan.json");
  REQUIRE_FALSE(ccbin);
  CHECK_THAT(ccbin.error().message, Contains("refused: -ccbin /tmp/evil (runs a program)"));
}
