// SPDX-License-Identifier: Apache-2.0
// What pr hands its measuring child so that it builds as the project does, and the unit that
// builds exactly the instantiation measured.
#include "measure/shipped_build.hpp"

#include <chrono>
#include <filesystem>
#include <mutex>
#include <thread>

#include <catch2/catch.hpp>

#include "base/scratch_folder.hpp"

using namespace kforecast;
using namespace kforecast::measure;

TEST_CASE("shipped build: the project build file reads back as written") {
  const ProjectBuild build{"/tmp/r/base", "/tmp/r/head \"quoted\"", {"-Iinclude", "-DX=1"}, {"-Iinclude", "-DX=2", "--use_fast_math"}};
  const auto parsed = measure::parse_project_build(measure::project_build_json(build));
  REQUIRE(parsed);
  CHECK(*parsed == build);
}

TEST_CASE("shipped build: a project build file of the wrong shape is refused, naming what it needs") {
  for (const char* text : {"", "[]", "{\"reference_tree\": 1}",
                           "{\"reference_tree\": \"a\", \"candidate_tree\": \"b\", \"reference_arguments\": [1], "
                           "\"candidate_arguments\": []}",
                           "{\"reference_tree\": \"a\", \"candidate_tree\": \"b\", \"reference_arguments\": []}"}) {
    const auto parsed = measure::parse_project_build(text);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().exit_code == ExitCode::usage);
  }
}

TEST_CASE("shipped build: the measuring unit includes the kernel's file and names the instantiation") {
  CHECK(measure::measuring_unit_text("src/kernels.cuh", "tiled<64>") ==
        "#include \"src/kernels.cuh\"\nstatic const auto kforecast_measured_kernel = &tiled<64>;\n");
}

namespace {

// Sees each unit it is handed while it "compiles": whether the unit's file stays on disk
// throughout, as nvcc needs it to.
class WatchingCompiler final : public cuda::UnitCompiler {
 public:
  std::string name() const override { return "watching"; }
  Result<cuda::UnitBuildOutput> compile(const cuda::UnitBuildRequest& request) const override {
    const bool before = std::filesystem::exists(request.tree / request.unit);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const bool after = std::filesystem::exists(request.tree / request.unit);
    const std::scoped_lock lock(m_mutex);
    m_units.push_back(request.unit);
    m_whole = m_whole && before && after;
    return fail(ExitCode::gate_failed, "not a compiler");
  }
  std::mutex& mutex() const { return m_mutex; }
  std::vector<std::string> units() const { return m_units; }
  bool whole() const { return m_whole; }

 private:
  mutable std::mutex m_mutex;
  mutable std::vector<std::string> m_units;
  mutable bool m_whole = true;
};

}  // namespace

TEST_CASE("shipped build: the same kernel built twice at once in one tree gets a unit of its own each time") {
  // Both sides of an A/A pair, or a family's first variant in two pairs measured together, are
  // built side by side in the same tree.
  const ScratchFolder tree("kforecast-shipped-test");
  bench::PreparedKernel kernel;
  kernel.name_expression = "k";
  const WatchingCompiler compiler;
  const auto build = [&] { (void)build_shipped_kernel(compiler, tree.path(), "k.cu", kernel, {}, "sm_90"); };
  std::thread first(build), second(build);
  first.join();
  second.join();
  const auto units = compiler.units();
  REQUIRE(units.size() == 2);
  CHECK(units[0] != units[1]);
  CHECK(compiler.whole());
  CHECK(std::filesystem::is_empty(tree.path()));  // each unit removed after its compile
}
