// SPDX-License-Identifier: Apache-2.0
// Building like the project, with the real nvcc: units a change affects are built at both
// revisions and their kernels compared per symbol. Fixture shapes from real repositories
// (docs/design/compile-context.md): a template kernel instantiated only at a host launch site,
// one passed as a value to a host launch helper, host code NVRTC cannot read, a real break, a
// missing submodule header.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "builds/unit_builds.hpp"
#include "builds/unit_code_compare.hpp"
#include "builds/unreported_kernels.hpp"
#include "measure/shipped_build.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::builds;
using policy::CodeComparison;

std::optional<std::string> kforecast::testing::missing_requirement() { return testing::missing_nvcc(); }

namespace {

const std::string runner =
    "#include <cstdint>\n#include <vector>\n#include \"kernels.cuh\"\n#define TILE_A 32\n#define TILE_B 64\n"
    "template <typename Kernel> void launch(Kernel kernel, float* p) { kernel<<<1, 32>>>(p); }\n"
    "template <int N> void run_tiled(float* p) { launch(tiled<N>, p); }\n"
    "void run(float* p) {\n  std::vector<std::uint32_t> sizes{1, 2};\n  tiled<TILE_A><<<1, 32>>>(p);\n"
    "  run_tiled<TILE_B>(p);\n  scale<<<1, 32>>>(p);\n}\n";

const std::string kernels_v1 =
    "#pragma once\ntemplate <int N> __global__ void tiled(float* p) {\n  __shared__ float t[N];\n"
    "  t[threadIdx.x % N] = p[threadIdx.x];\n  __syncthreads();\n  p[threadIdx.x] = t[(threadIdx.x + 1) % N] * 2.0f;\n}\n"
    "__global__ void scale(float* p) { p[threadIdx.x] *= 3.0f; }\n";

struct Case {
  kernels::SourceFiles base_files, head_files;
  std::vector<kernel_changes::FileRename> renames;
  UnitBuilds builds;
  std::vector<kernel_changes::ChangedKernel> changed;

  // The units a change reaches, built with nvcc at both revisions under `arguments`. With no
  // changed kernels, the units built for the scanner's gaps alone.
  static UnitBuilds build_units(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                const std::vector<kernel_changes::ChangedKernel>& kernels,
                                const std::vector<std::string>& arguments = {}, std::size_t max_units = 8) {
    cuda::NvccSettings settings;
    settings.nvcc = testing::nvcc_for_tests();
    settings.version = "test";
    settings.program = KF_BINARY;
    const cuda::NvccUnitCompiler compiler(settings);
    const UnitBuildSettings build{compiler,
                                  "sm_90",
                                  [&arguments](const std::string&, const kernels::RevisionSources&) {
                                    return UnitContext{arguments, "a test's"};
                                  },
                                  nullptr,
                                  2,
                                  std::chrono::seconds(300),
                                  max_units};
    return build_affected_units(base, head, kernels, build);
  }

  UnitCodeVerdicts compare(std::vector<std::string> arguments = {}) {
    const kernels::RevisionSources base(base_files), head(head_files);
    std::set<std::string, std::less<>> touched;
    for (const auto& [path, text] : head_files)
      if (!base_files.contains(path) || base_files.at(path) != text) touched.insert(path);
    for (const auto& [path, text] : base_files)
      if (!head_files.contains(path)) touched.insert(path);
    changed = kernel_changes::find_changed_kernels(base, head, renames, touched).kernels;
    builds = build_units(base, head, changed, arguments);
    return compare_unit_builds(builds, changed, "sm_90", &base_files, &head);
  }

  const KernelCodeVerdict& verdict(const UnitCodeVerdicts& verdicts, const std::string& name) const {
    for (std::size_t i = 0; i < changed.size(); ++i)
      if (changed[i].head && changed[i].head->qualified_name == name) return verdicts.kernels[i];
    FAIL("no changed kernel " << name);
    throw std::logic_error("unreachable");
  }
};

// The runner and the kernels at the base; the head's kernels are the base's with each
// (from, to) replacement made once, in order.
Case kernels_edited(std::vector<std::pair<std::string, std::string>> replacements, const std::string& runner_text = runner) {
  Case c;
  c.base_files = {{"src/kernels.cuh", kernels_v1}, {"src/runner.cu", runner_text}};
  c.head_files = c.base_files;
  std::string edited = kernels_v1;
  for (const auto& [from, to] : replacements) edited.replace(edited.find(from), from.size(), to);
  c.head_files["src/kernels.cuh"] = edited;
  return c;
}

}  // namespace

TEST_CASE("nvcc units: a renaming edit of a template kernel instantiated only from host code is identical") {
  // The shared array renamed: a change of text the scan reports, and the same machine code.
  Case c = kernels_edited({{"t[N]", "tile[N]"}, {"t[threadIdx.x % N]", "tile[threadIdx.x % N]"},
                           {"t[(threadIdx.x + 1) % N]", "tile[(threadIdx.x + 1) % N]"}});
  const auto verdicts = c.compare();
  const auto& tiled = c.verdict(verdicts, "tiled");
  REQUIRE(tiled.outcome);
  CHECK(*tiled.outcome == CodeComparison::identical);
  // Both instantiations: the one launched directly and the one passed to a launch helper.
  CHECK(tiled.names == std::vector<std::string>{"tiled<32>", "tiled<64>"});
  // The header instantiates it nowhere: these are what its measurement is built at.
  INFO(tiled.instances.base << " / " << tiled.instances.head);
  CHECK(tiled.instances.base == tiled.instances.head);
  CHECK(std::ranges::find(tiled.names, tiled.instances.head) != tiled.names.end());
  REQUIRE(tiled.instances.others.size() == 1);  // the other one, to try where a capture launched only it
  CHECK(tiled.instances.others.front() != tiled.instances.head);
  CHECK(tiled.compiled_by.find("unit src/runner.cu, context a test's") != std::string::npos);
  CHECK(verdicts.unreported.empty());
}

TEST_CASE("nvcc units: a launch-bounds change with the same statements differs, and says how") {
  Case c = kernels_edited({{"__global__ void tiled", "__global__ void __launch_bounds__(32) tiled"}});
  const auto verdicts = c.compare();
  const auto& tiled = c.verdict(verdicts, "tiled");
  REQUIRE(tiled.outcome);
  CHECK(*tiled.outcome == CodeComparison::different);
  CHECK(tiled.note.find("launch bounds") != std::string::npos);
}

TEST_CASE("nvcc units: a head that breaks the project's code is a real break, first error in the project's file") {
  Case c = kernels_edited({{"3.0f", "three"}});
  const auto verdicts = c.compare();
  const auto& scale = c.verdict(verdicts, "scale");
  REQUIRE(scale.outcome);
  CHECK(*scale.outcome == CodeComparison::head_failed);
  CHECK(scale.missing_context.empty());
  CHECK(scale.note.find("src/kernels.cuh(") != std::string::npos);
}

TEST_CASE("nvcc units: the note on a break starts at the first error, not at the warnings before it") {
  Case c = kernels_edited({{"#pragma once\n", "#pragma once\n#warning \"FOO_ARCH was not defined\"\n"}, {"3.0f", "three"}});
  const auto verdicts = c.compare();
  const auto& scale = c.verdict(verdicts, "scale");
  REQUIRE(scale.outcome);
  CHECK(*scale.outcome == CodeComparison::head_failed);
  CHECK(scale.note.starts_with("src/runner.cu: src/kernels.cuh("));
  CHECK(scale.note.find("error") < scale.note.find('\n'));
}

TEST_CASE("nvcc units: a header the base had and the head lost is a real break, not missing context") {
  // Regression (field test): a header renamed while an includer kept the old name passed the
  // gate as "missing context" although the project's own build breaks too.
  Case c;
  c.base_files = {{"src/kernels.cuh", kernels_v1}, {"src/runner.cu", runner}};
  std::string renamed = kernels_v1;
  renamed.replace(renamed.find("3.0f"), 4, "4.0f");
  c.head_files = {{"src/kernels_renamed.cuh", renamed}, {"src/runner.cu", runner}};
  c.renames = {{"src/kernels.cuh", "src/kernels_renamed.cuh"}};
  const auto verdicts = c.compare();
  bool broken = false;
  for (const auto& verdict : verdicts.kernels)
    if (verdict.outcome == CodeComparison::head_failed) {
      CHECK(verdict.missing_context.empty());
      CHECK(verdict.note.find("the base has and the head does not (<kernels.cuh>)") != std::string::npos);
      broken = true;
    }
  CHECK(broken);
}

TEST_CASE("nvcc units: a head whose host code this toolkit rejects is missing context, not a break") {
  // llm.c's shape: a runtime call whose signature a newer CUDA changed, in host code only.
  Case c = kernels_edited({{"3.0f", "4.0f"}});
  std::string host_error = runner;
  host_error.replace(host_error.find("  scale<<<"), 0, "  cudaMemLocation where = -1;\n");
  c.head_files["src/runner.cu"] = host_error;
  const auto verdicts = c.compare();
  const auto& scale = c.verdict(verdicts, "scale");
  REQUIRE(scale.outcome);
  CHECK(*scale.outcome == CodeComparison::head_failed);
  CHECK(scale.missing_context == "host code this toolkit rejects");
}

TEST_CASE("nvcc units: a header a plain clone lacks (a submodule's) is missing context at both revisions") {
  Case c = kernels_edited({{"3.0f", "4.0f"}}, "#include <dep/missing.h>\n" + runner);
  const auto verdicts = c.compare();
  const auto& scale = c.verdict(verdicts, "scale");
  REQUIRE(scale.outcome);
  CHECK(*scale.outcome == CodeComparison::both_failed);
  CHECK(scale.missing_context == "missing <dep/missing.h>");
}

TEST_CASE("nvcc units: machine code that changed in a kernel the scan did not report is named") {
  Case c = kernels_edited({{"3.0f", "5.0f"}, {"2.0f", "7.0f"}});
  c.compare();
  // Tell the comparison about tiled only, as a scanner blind to scale would.
  std::vector<kernel_changes::ChangedKernel> only_tiled;
  for (const auto& kernel : c.changed)
    if (kernel.head && kernel.head->qualified_name == "tiled") only_tiled.push_back(kernel);
  REQUIRE(only_tiled.size() == 1);
  const auto verdicts = compare_unit_builds(c.builds, only_tiled, "sm_90");
  REQUIRE(verdicts.unreported.size() == 1);
  CHECK(verdicts.unreported[0].kernel == "scale");
  CHECK(verdicts.unreported[0].unit == "src/runner.cu");
  CHECK(verdicts.unreported[0].instances == std::vector<std::string>{"scale"});
  CHECK(verdicts.unreported[0].difference.find("code differs") != std::string::npos);
}

TEST_CASE("nvcc units: a tile constant changed at the launch site, seen by no scan, becomes a changed kernel") {
  // SGEMM_CUDA's shape: the kernels' header untouched, the runner's template argument changed.
  Case c;
  c.base_files = {{"src/kernels.cuh", kernels_v1}, {"src/runner.cu", runner}};
  c.head_files = c.base_files;
  std::string edited = runner;
  edited.replace(edited.find("TILE_A 32"), 9, "TILE_A 16");
  c.head_files["src/runner.cu"] = edited;
  const kernels::RevisionSources base(c.base_files), head(c.head_files);
  // As if the scan had reported nothing: the runner is built for the gaps all the same.
  const auto builds = Case::build_units(base, head, {});
  REQUIRE(builds.units.size() == 1);
  CHECK(builds.units[0].unit == "src/runner.cu");
  const auto verdicts = compare_unit_builds(builds, {}, "sm_90");
  REQUIRE(verdicts.unreported.size() == 1);
  // tiled<16> is built instead of tiled<32>; tiled<64> did not change.
  CHECK(verdicts.unreported[0].kernel == "tiled");
  CHECK(verdicts.unreported[0].difference == "instantiation tiled<16> is built instead of tiled<32>");
  CHECK(verdicts.unreported[0].instances.size() == 2);
  const auto found = kernels_from_machine_code(base, head, verdicts.unreported);
  REQUIRE(found.kernels.size() == 1);
  CHECK(found.kernels[0].head->file == "src/kernels.cuh");
  CHECK(found.kernels[0].head->qualified_name == "tiled");
  CHECK(found_by_machine_code(found.kernels[0]));
  REQUIRE(found.verdicts.size() == 1);
  CHECK(found.verdicts[0].outcome == CodeComparison::different);
  CHECK(found.verdicts[0].build_arguments.has_value());
}

TEST_CASE("nvcc units: a launch dropped at the launch site is a note, not a kernel to measure") {
  // llm.c's shape: host code stops launching one instantiation; no instantiation replaces it.
  Case c;
  c.base_files = {{"src/kernels.cuh", kernels_v1}, {"src/runner.cu", runner}};
  c.head_files = c.base_files;
  std::string edited = runner;
  edited.erase(edited.find("  run_tiled<TILE_B>(p);\n"), 24);
  c.head_files["src/runner.cu"] = edited;
  const kernels::RevisionSources base(c.base_files), head(c.head_files);
  const auto builds = Case::build_units(base, head, {});
  const auto verdicts = compare_unit_builds(builds, {}, "sm_90");
  REQUIRE(verdicts.unreported.size() == 1);
  CHECK_FALSE(verdicts.unreported[0].comparable);
  const auto found = kernels_from_machine_code(base, head, verdicts.unreported);
  CHECK(found.kernels.empty());
  REQUIRE(found.notes.size() == 1);
  CHECK(found.notes[0].find("instantiation tiled<64> is no longer built") != std::string::npos);
}

TEST_CASE("nvcc units: the measuring child builds exactly the instantiation measured, with the project's context") {
  testing::TempDir tree;
  std::filesystem::create_directories(tree.path() / "src");
  std::ofstream(tree.path() / "src/kernels.cuh") << kernels_v1;
  cuda::NvccSettings settings;
  settings.nvcc = testing::nvcc_for_tests();
  settings.version = "test";
  settings.program = KF_BINARY;
  const cuda::NvccUnitCompiler compiler(settings);
  const auto no_headers = [](std::string_view) { return false; };
  for (const auto& [expression, symbol] : {std::pair{"tiled<64>", "_Z5tiledILi64EEvPf"}, std::pair{"scale", "_Z5scalePf"}}) {
    const std::string path = (tree.path() / "src/kernels.cuh").string();
    auto prepared = bench::prepare_kernel({"k", path, kernels_v1}, expression, no_headers);
    REQUIRE(prepared);
    const auto built = measure::build_shipped_kernel(compiler, tree.path().string(), "src/kernels.cuh", *prepared, {"-DUNUSED=1"}, "sm_90");
    REQUIRE(built);
    CHECK(built->kernel.lowered_name == symbol);
    CHECK(built->build == "nvcc test for sm_90: -DUNUSED=1");
    CHECK_FALSE(built->kernel.cubin.empty());
  }
  // The unit it wrote is gone, and a kernel the file lacks is an error naming it.
  CHECK(std::distance(std::filesystem::directory_iterator(tree.path()), std::filesystem::directory_iterator()) == 1);
  auto prepared = bench::prepare_kernel({"k", (tree.path() / "src/kernels.cuh").string(), kernels_v1}, "tiled<8>", no_headers);
  REQUIRE(prepared);
  prepared->name_expression = "tiled_missing<8>";
  const auto missing = measure::build_shipped_kernel(compiler, tree.path().string(), "src/kernels.cuh", *prepared, {}, "sm_90");
  REQUIRE_FALSE(missing);
}

TEST_CASE("nvcc units: identical in the units built is not settled while a unit that may build it was not") {
  // ggml's mul_mat_q: one template kernel instantiated by many units, only some built under
  // compile.max_units. Here kern<1> is built by src/one.cu (the unit the cap lets through) and
  // kern<0> by src/zero.cu; the head edits the branch only kern<0> runs. Settled from one.cu alone,
  // the kernel was "identical, speedup exactly 1" though kern<0>'s code changed.
  const auto header = [](std::string_view step) {
    return "#pragma once\ntemplate <int T> __global__ void kern(float* p) {\n"
           "  if constexpr (T == 1) { p[threadIdx.x] *= 2.0f; } else { p[threadIdx.x] += " + std::string(step) + "; }\n}\n";
  };
  Case c;
  c.base_files = {{"src/kern.cuh", header("1.0f")},
                  {"src/zero.cu", "#include \"kern.cuh\"\nvoid zero(float* p) { kern<0><<<1, 32>>>(p); }\n"},
                  {"src/one.cu", "#include \"kern.cuh\"\nvoid one(float* p) { kern<1><<<1, 32>>>(p); }\n"}};
  c.head_files = c.base_files;
  c.head_files["src/kern.cuh"] = header("5.0f");
  const kernels::RevisionSources base(c.base_files), head(c.head_files);
  std::set<std::string, std::less<>> touched{"src/kern.cuh"};
  c.changed = kernel_changes::find_changed_kernels(base, head, {}, touched).kernels;
  REQUIRE(c.changed.size() == 1);
  c.builds = Case::build_units(base, head, c.changed, {}, 1);
  REQUIRE(c.builds.units.size() == 2);  // the unit over the cap is listed, not built
  REQUIRE(c.builds.units[0].unit == "src/one.cu");
  CHECK(c.builds.units[1].not_run == "compile.max_units (1) reached");
  const auto verdicts = compare_unit_builds(c.builds, c.changed, "sm_90");
  const auto& verdict = verdicts.kernels[0];
  CHECK_FALSE(verdict.outcome.has_value());
  CHECK_THAT(verdict.note, Catch::Matchers::Contains("machine code identical in 1 unit built, but 1 more that may build "
                                                     "it was not compiled (src/zero.cu (compile.max_units (1) reached))"));
}

TEST_CASE("nvcc units: a kernel whose parameter list changed says so, not that it is built instead of itself") {
  // diff-gaussian-rasterization's shape: a parameter added to a kernel, its launch updated.
  Case c = kernels_edited({{"__global__ void scale(float* p) { p[threadIdx.x] *= 3.0f; }",
                            "__global__ void scale(float* p, float by = 3.0f) { p[threadIdx.x] *= by; }"}});
  const auto verdicts = c.compare();
  const auto& scale = c.verdict(verdicts, "scale");
  REQUIRE(scale.outcome);
  CHECK(*scale.outcome == CodeComparison::different);
  CHECK(scale.note == "scale's parameters changed: (float*) → (float*, float) in src/runner.cu");
}
