// SPDX-License-Identifier: Apache-2.0
// Building the affected units over a fake compiler: both revisions of each, from the cache on a
// second run, within the budget, and a failure kept as the unit's log.
#include "builds/unit_builds.hpp"
#include "builds/unit_code_compare.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <thread>

#include <catch2/catch.hpp>

#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::builds;
using kforecast::testing::TempDir;

namespace {

// Reads the unit from the tree it was handed (so the tree must be written), "compiles" it to its
// own text, and fails a unit that says BROKEN.
class FakeUnitCompiler final : public cuda::UnitCompiler {
 public:
  std::string name() const override { return "fake 1.0"; }
  Result<cuda::UnitBuildOutput> compile(const cuda::UnitBuildRequest& request) const override {
    ++calls;
    std::ifstream in(request.tree / request.unit);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (text.empty()) return fail(ExitCode::could_not_run, "the tree was not written");
    if (!fail_unless.empty() && text.find(fail_unless) != std::string::npos &&
        !std::filesystem::exists(request.tree / fail_unless))
      return fail(ExitCode::gate_failed, request.unit + ":2:10: fatal error: " + fail_unless + ": No such file or directory");
    if (!fail_unless.empty() && text.find(fail_unless) != std::string::npos) {
      cuda::UnitBuildOutput output;
      output.cubin.push_back(std::byte{1});
      return output;
    }
    if (text.find("BROKEN") != std::string::npos)
      return fail(ExitCode::gate_failed, request.unit + "(1): error: broken");
    // A unit saying SLOW compiles until its time limit stops it, as run_process stops nvcc.
    if (text.find("SLOW") != std::string::npos) {
      limits.push_back(request.time_limit);
      std::this_thread::sleep_for(request.time_limit);
      return fail(ExitCode::could_not_run, "nvcc was stopped: it did not finish");
    }
    cuda::UnitBuildOutput output;
    for (char c : text) output.cubin.push_back(std::byte(c));
    output.project_headers = {"k.cuh"};
    return output;
  }
  mutable std::atomic<int> calls{0};
  mutable std::vector<std::chrono::milliseconds> limits;  // the time limits SLOW units were given
  std::string fail_unless;                                // a unit naming this file fails where the tree lacks it
};

struct Scenario {
  kernels::SourceFiles base_files{{"k.cuh", "#pragma once\n__global__ void k(float* p) { p[0] = 1; }\n"},
                                  {"a.cu", "#include \"k.cuh\"\n"},
                                  {"b.cu", "#include \"k.cuh\"\n// b\n"}};
  kernels::SourceFiles head_files{{"k.cuh", "#pragma once\n__global__ void k(float* p) { p[0] = 2; }\n"},
                                  {"a.cu", "#include \"k.cuh\"\n"},
                                  {"b.cu", "#include \"k.cuh\"\n// b\n"}};
  FakeUnitCompiler compiler;
  std::vector<std::string> contexts_asked;
  std::string unavailable_unit;  // its context says it cannot be compiled here
  std::vector<std::string> arguments{"-DX"};
  std::vector<std::pair<std::size_t, std::size_t>> progress;

  UnitBuilds build(const UnitCache* cache, std::chrono::seconds budget = std::chrono::seconds(60), std::size_t jobs = 2,
                   std::size_t max_units = 8) {
    const kernels::RevisionSources base(base_files), head(head_files);
    const auto changed = kernel_changes::find_changed_kernels(base, head, {}, {"k.cuh"}).kernels;
    UnitBuildSettings settings{compiler,
                               "sm_90",
                               [this](const std::string& unit, const kernels::RevisionSources&) {
                                 contexts_asked.push_back(unit);
                                 return UnitContext{arguments, "a test",
                                                    unit == unavailable_unit ? "it includes <torch/extension.h>" : ""};
                               },
                               cache,
                               jobs,
                               budget,
                               max_units};
    settings.progress = [this](std::size_t done, std::size_t total) { progress.emplace_back(done, total); };
    return build_affected_units(base, head, changed, settings);
  }
};

}  // namespace

TEST_CASE("unit builds: every affected unit is built at both revisions, and a second run comes from the cache") {
  TempDir dir;
  const UnitCache cache(dir.path());
  Scenario scenario;
  const auto first = scenario.build(&cache);
  REQUIRE(first.units.size() == 2);
  CHECK(first.compiler == "fake 1.0");
  CHECK(first.compiles == 4);
  CHECK(first.cache_hits == 0);
  for (const auto& unit : first.units) {
    CHECK(unit.base.state == SideBuild::State::compiled);
    CHECK(unit.head.state == SideBuild::State::compiled);
    CHECK(unit.head_context.origin == "a test");
    CHECK(unit.not_run.empty());
  }
  CHECK(scenario.contexts_asked.size() == 4);  // each unit at each revision

  const auto second = scenario.build(&cache);
  CHECK(second.compiles == 0);
  CHECK(second.cache_hits == 4);
  CHECK(scenario.compiler.calls == 4);
  CHECK(second.units[0].head.from_cache);
  CHECK(second.units[0].head.cubin == first.units[0].head.cubin);

  // A header the compile read changes: those units are built again.
  scenario.head_files["k.cuh"] += "// edited\n";
  const auto third = scenario.build(&cache);
  CHECK(third.compiles == 2);  // the heads
  CHECK(third.cache_hits == 2);
}

TEST_CASE("unit builds: a unit that does not compile keeps its log, from the cache too") {
  TempDir dir;
  const UnitCache cache(dir.path());
  Scenario scenario;
  scenario.head_files["a.cu"] = "#include \"k.cuh\"\nBROKEN\n";
  for (int run = 0; run < 2; ++run) {
    const auto builds = scenario.build(&cache, std::chrono::seconds(60), 1);
    const auto a = std::ranges::find(builds.units, "a.cu", &UnitBuild::unit);
    REQUIRE(a != builds.units.end());
    CHECK(a->base.state == SideBuild::State::compiled);
    CHECK(a->head.state == SideBuild::State::failed);
    CHECK(a->head.log == "a.cu(1): error: broken");
  }
  CHECK(scenario.compiler.calls == 4);
}

TEST_CASE("unit builds: a failure for want of a file is not answered from the cache once the file is there") {
  // llm.c's shape: a.cu includes another .cu that one run did not have; a later revision that
  // has it compiles again instead of taking the cached "No such file".
  TempDir dir;
  const UnitCache cache(dir.path());
  Scenario scenario;
  scenario.head_files["a.cu"] = "#include \"k.cuh\"\n#include \"train.cu\"\nBROKEN_WITHOUT_TRAIN\n";
  scenario.compiler.fail_unless = "train.cu";
  const auto first = scenario.build(&cache, std::chrono::seconds(60), 1);
  const auto a = std::ranges::find(first.units, "a.cu", &UnitBuild::unit);
  REQUIRE(a != first.units.end());
  CHECK(a->head.state == SideBuild::State::failed);
  scenario.head_files["train.cu"] = "int trained;\n";
  const int calls = scenario.compiler.calls;
  const auto second = scenario.build(&cache, std::chrono::seconds(60), 1);
  const auto again = std::ranges::find(second.units, "a.cu", &UnitBuild::unit);
  REQUIRE(again != second.units.end());
  CHECK_FALSE(again->head.from_cache);
  CHECK(again->head.state == SideBuild::State::compiled);
  CHECK(scenario.compiler.calls > calls);
}

TEST_CASE("unit builds: past the budget nothing more is compiled, and the note says so") {
  Scenario scenario;
  const auto builds = scenario.build(nullptr, std::chrono::seconds(0));
  CHECK(scenario.compiler.calls == 0);
  for (const auto& unit : builds.units) CHECK(unit.not_run.find("compile.budget_seconds") != std::string::npos);
  REQUIRE(builds.notes.size() == 1);
  CHECK(builds.notes[0].find("2 of 2 units were not compiled") != std::string::npos);
}

TEST_CASE("unit builds: at most max_units units, nearest first, the rest named in a note") {
  Scenario scenario;
  const auto builds = scenario.build(nullptr, std::chrono::seconds(60), 1, 1);
  // The unit over the cap is listed unbuilt, so that no kernel it may build is settled without it.
  REQUIRE(builds.units.size() == 2);
  CHECK(builds.units[0].unit == "a.cu");
  CHECK(builds.units[0].not_run.empty());
  CHECK(builds.units[1].not_run == "compile.max_units (1) reached");
  CHECK(builds.units[1].base.state == SideBuild::State::not_run);
  REQUIRE(builds.notes.size() == 1);
  CHECK(builds.notes[0].find("1 of the 2 units") != std::string::npos);
  CHECK(scenario.compiler.calls == 2);
}

TEST_CASE("unit builds: a kernel whose units were left out for time is still measured in nvcc's build") {
  // Past compile.max_units, 18 of 50 kernels were measured in NVRTC's build: not the one the
  // project ships, and said nowhere. Their units' contexts still give nvcc's arguments.
  Scenario scenario;
  const kernels::RevisionSources base(scenario.base_files), head(scenario.head_files);
  const auto changed = kernel_changes::find_changed_kernels(base, head, {}, {"k.cuh"}).kernels;
  const auto over_budget = scenario.build(nullptr, std::chrono::seconds(0));
  const auto by_budget = compare_unit_builds(over_budget, changed, "sm_90");
  REQUIRE(by_budget.kernels.size() == 1);
  CHECK_FALSE(by_budget.kernels[0].outcome.has_value());
  REQUIRE(by_budget.kernels[0].build_arguments.has_value());
  CHECK(by_budget.kernels[0].build_arguments->head == std::vector<std::string>{"-DX"});

  scenario.contexts_asked.clear();
  const auto capped = scenario.build(nullptr, std::chrono::seconds(60), 1, 1);
  CHECK(std::ranges::count(scenario.contexts_asked, "b.cu") == 2);  // the unit over the cap: both revisions
  CHECK(capped.units[1].head_context.arguments == std::vector<std::string>{"-DX"});

  // A unit whose context says it cannot be compiled here gives no build to measure in.
  scenario.base_files.erase("b.cu");
  scenario.head_files.erase("b.cu");
  scenario.unavailable_unit = "a.cu";
  const auto unavailable = scenario.build(nullptr, std::chrono::seconds(0));
  REQUIRE(unavailable.units.size() == 1);
  CHECK_FALSE(compare_unit_builds(unavailable, changed, "sm_90").kernels[0].build_arguments.has_value());
}

TEST_CASE("unit builds: a kernel that only unbuilt units reach names the first few, not all") {
  // A header reached by a hundred units: the note was one entry per unit.
  UnitBuilds builds;
  builds.compiler = "nvcc test";
  for (const char* unit : {"a.cu", "b.cu", "c.cu", "d.cu", "e.cu"}) {
    UnitBuild skipped;
    skipped.unit = unit;
    skipped.kernels = {0};
    skipped.not_run = "compile.max_units (0) reached";
    builds.units.push_back(std::move(skipped));
  }
  const kernel_changes::KernelSite site{"k.cuh", "k", 1, 0};
  const std::vector<kernel_changes::ChangedKernel> changed{{kernel_changes::KernelChange::modified, site, site, {}}};
  const auto verdicts = compare_unit_builds(builds, changed, "sm_90");
  REQUIRE(verdicts.kernels.size() == 1);
  CHECK_FALSE(verdicts.kernels[0].outcome.has_value());
  CHECK(verdicts.kernels[0].note ==
        "not compiled: a.cu (compile.max_units (0) reached), b.cu (compile.max_units (0) reached), c.cu "
        "(compile.max_units (0) reached) and 2 more");
}

// A compile is stopped where the budget ends, however long the compiler's own limit: its unit is
// not run (its kernels are forecast, never failed as not compiling), and nothing is cached.
TEST_CASE("unit builds: the budget stops a compile in flight, its unit is not run, not failed") {
  TempDir dir;
  const UnitCache cache(dir.path());
  Scenario scenario;
  scenario.head_files["a.cu"] = "#include \"k.cuh\"\n// SLOW\n";
  const auto started = std::chrono::steady_clock::now();
  const auto builds = scenario.build(&cache, std::chrono::seconds(1), 1);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
  REQUIRE_FALSE(scenario.compiler.limits.empty());
  CHECK(scenario.compiler.limits.front() <= std::chrono::milliseconds(1001));
  const auto slow = std::ranges::find(builds.units, "a.cu", &UnitBuild::unit);
  REQUIRE(slow != builds.units.end());
  CHECK(slow->head.state == SideBuild::State::not_run);
  CHECK(slow->not_run.find("compile.budget_seconds") != std::string::npos);
  REQUIRE_FALSE(builds.notes.empty());
  CHECK(builds.notes.back().find("units were not compiled") != std::string::npos);
}

// A run that stopped at its budget leaves its finished units in the cache; the next run, even
// with its own budget spent, answers them from there instead of leaving them unbuilt.
TEST_CASE("unit builds: past the budget the cache still answers") {
  TempDir dir;
  const UnitCache cache(dir.path());
  Scenario scenario;
  const auto first = scenario.build(&cache);
  const int calls = scenario.compiler.calls;
  const auto second = scenario.build(&cache, std::chrono::seconds(0));
  CHECK(scenario.compiler.calls == calls);
  for (const auto& unit : second.units) {
    CHECK(unit.base.from_cache);
    CHECK(unit.head.from_cache);
    CHECK(unit.not_run.empty());
  }
  CHECK(second.notes.empty());
}

TEST_CASE("unit builds: a unit whose context cannot be had here is not compiled, and says why") {
  Scenario scenario;
  scenario.unavailable_unit = "b.cu";
  const auto builds = scenario.build(nullptr, std::chrono::seconds(60), 1);
  const auto b = std::ranges::find(builds.units, "b.cu", &UnitBuild::unit);
  REQUIRE(b != builds.units.end());
  CHECK(b->not_run == "it includes <torch/extension.h>");
  CHECK(b->base.state == SideBuild::State::not_run);
  CHECK(b->head.state == SideBuild::State::not_run);
  CHECK(builds.compiles == 2);  // a.cu, both revisions
  CHECK(builds.notes.empty());  // not counted as stopped by the budget
  CHECK(scenario.progress.back() == std::pair<std::size_t, std::size_t>{4, 4});
}

TEST_CASE("unit builds: progress is said before the first compile, then as each finishes") {
  Scenario scenario;
  scenario.build(nullptr, std::chrono::seconds(60), 1);
  REQUIRE(scenario.progress.size() == 5);
  CHECK(scenario.progress.front() == std::pair<std::size_t, std::size_t>{0, 4});
  CHECK(scenario.progress.back() == std::pair<std::size_t, std::size_t>{4, 4});
}

TEST_CASE("unit builds: a cached failure for want of a header outside the repository ends once it is installed") {
  // DeepEP's shape: NVSHMEM's headers include <infiniband/mlx5dv.h>, which a runner without
  // libibverbs-dev lacks. The system's headers are not hashed, so the cache must look again.
  TempDir dir, system;
  const UnitCache cache(dir.path());
  Scenario scenario;
  scenario.arguments = {"-I" + system.path().string()};
  scenario.head_files["a.cu"] = "#include \"k.cuh\"\n#include <testlib/verbs.h>\n";
  scenario.compiler.fail_unless = "testlib/verbs.h";
  const auto head_of_a = [](const UnitBuilds& builds) { return std::ranges::find(builds.units, "a.cu", &UnitBuild::unit)->head; };
  const auto first = head_of_a(scenario.build(&cache, std::chrono::seconds(60), 1));
  INFO(first.log);
  CHECK(first.state == SideBuild::State::failed);
  CHECK(head_of_a(scenario.build(&cache, std::chrono::seconds(60), 1)).from_cache);  // nothing changed yet
  std::filesystem::create_directories(system.path() / "testlib");
  std::ofstream(system.path() / "testlib" / "verbs.h") << "#pragma once\n";
  CHECK_FALSE(head_of_a(scenario.build(&cache, std::chrono::seconds(60), 1)).from_cache);
}
