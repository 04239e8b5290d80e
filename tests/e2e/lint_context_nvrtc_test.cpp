// SPDX-License-Identifier: Apache-2.0
// kforecast lint compiles a file with the compile context `pr` builds it with: a header found
// through the project's include folders and a macro its build defines. Before, lint compiled
// every file bare, and such a file gave "compiler facts unavailable" and no compiler-backed rule.
// Skipped (exit 77) where NVRTC is not installed.
#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "launch_kernel.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvrtc(); }

namespace {

// A kernel with a launch spec (the occupancy rule reads its registers from the compiler's
// facts), which compiles only with include/ on the include path and WIDTH defined.
void write_project(const FixtureRepo& repo) {
  repo.write("include/width.cuh", "#pragma once\nconstexpr int kWidth = WIDTH;\n");
  repo.write("src/k.cu", "#include \"width.cuh\"\n" + kernel(32, 65536, "", " (void)kWidth;"));
}

void check_compiled(const Run& run) {
  INFO(run.out << run.err);
  CHECK_THAT(run.out, !Contains("compiler facts unavailable"));
  CHECK_THAT(run.out, Contains("registers per thread and 0 bytes of static shared memory from NVRTC (sm_90)"));
}

}  // namespace

TEST_CASE("e2e: lint compiles a file with its compile database entry's include folders and defines") {
  FixtureRepo repo;
  write_project(repo);
  repo.write("build/compile_commands.json",
             R"([{"directory": ")" + repo.path().string() +
                 R"(", "file": "src/k.cu", "arguments": ["nvcc", "-Iinclude", "-DWIDTH=16", "-c", "src/k.cu"]}])");
  auto run = run_kforecast({"lint", "src/k.cu", "--no-forecast", "--format", "json"}, repo.path(),
                           {"XDG_CACHE_HOME=" + (repo.path() / "cache").string()});
  check_compiled(run);
  CHECK_THAT(run.out, Contains("compile context from build/compile_commands.json"));
}

TEST_CASE("e2e: lint compiles a file with the config's compile settings") {
  FixtureRepo repo;
  write_project(repo);
  repo.write(".kforecast.toml", "[compile]\ninclude_dirs = [\"include\"]\ndefines = [\"WIDTH=16\"]\n");
  check_compiled(run_kforecast({"lint", "src/k.cu", "--no-forecast", "--format", "json"}, repo.path(),
                               {"XDG_CACHE_HOME=" + (repo.path() / "cache").string()}));
}

TEST_CASE("e2e: lint says once for the run that files did not compile, with the fix") {
  FixtureRepo repo;
  write_project(repo);
  repo.write("src/k2.cu", "#include \"width.cuh\"\n__global__ void k2(float* y) { y[0] = kWidth; }\n");
  auto run = run_kforecast({"lint", "src/k.cu", "src/k2.cu", "--no-forecast"}, repo.path(),
                           {"XDG_CACHE_HOME=" + (repo.path() / "cache").string()});
  INFO(run.out << run.err);
  CHECK_THAT(run.out + run.err, Contains("(and 1 more file)"));
  CHECK_THAT(run.out + run.err, Contains("give kforecast its compile_commands.json"));
}
