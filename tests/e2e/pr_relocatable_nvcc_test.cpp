// SPDX-License-Identifier: Apache-2.0
// kforecast pr with nvcc on a project whose device code is relocatable: a kernel calls a device
// function defined in another file, which links only with -rdc=true (CMake's
// CUDA_SEPARABLE_COMPILATION, a Makefile's or compile database's -dc). Compiled whole-program,
// ptxas stops on the unresolved extern and the kernel cannot be compared; compiled as the project
// compiles it, its machine code is compared at both revisions.
#include <catch2/catch.hpp>

#include "e2e/e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvcc(); }

namespace {

void commit_sources(const FixtureRepo& repo, const std::string& factor) {
  repo.write("src/helper.cu", "__device__ float helper(float x) { return x * 2.0f; }\n");
  repo.write("src/k.cu", "extern __device__ float helper(float x);\n__global__ void k(float* p) {\n  p[threadIdx.x] = "
                         "helper(p[threadIdx.x]) * " +
                             factor + ";\n}\n");
}

// The kernel was compiled at both revisions and its code compared: no ptxas failure.
void check_compared(const Run& run) {
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, !Contains("nresolved extern"));
  CHECK_THAT(run.out, Contains("machine code differs"));
}

Run pr_on(FixtureRepo& repo, const std::string& build_file, const std::string& text) {
  repo.write(build_file, text);
  commit_sources(repo, "3.0f");
  repo.commit("base");
  commit_sources(repo, "4.0f");
  repo.commit("head");
  return run_kforecast({"pr", "--base", "HEAD~1", "--no-bench", "--format", "json"}, repo.path(),
                       {"XDG_CACHE_HOME=" + (repo.path() / ".git/kf-cache").string()});
}

}  // namespace

TEST_CASE("e2e nvcc: CMake's CUDA_SEPARABLE_COMPILATION compiles the kernel relocatable, as the project does") {
  FixtureRepo repo;
  check_compared(pr_on(repo, "CMakeLists.txt",
                       "project(p LANGUAGES CXX CUDA)\nadd_library(k src/k.cu src/helper.cu)\n"
                       "set_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n"));
}

TEST_CASE("e2e nvcc: CMAKE_CUDA_SEPARABLE_COMPILATION compiles every unit relocatable") {
  FixtureRepo repo;
  check_compared(pr_on(repo, "CMakeLists.txt",
                       "project(p LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_SEPARABLE_COMPILATION ON)\n"
                       "add_library(k src/k.cu src/helper.cu)\n"));
}

TEST_CASE("e2e nvcc: a compile database's -dc compiles the kernel relocatable") {
  FixtureRepo repo;
  const std::string database = R"([{"directory": ")" + repo.path().string() +
                               R"(", "file": "src/k.cu", "arguments": ["nvcc", "-dc", "src/k.cu", "-o", "k.o"]}])";
  check_compared(pr_on(repo, "build/compile_commands.json", database));
}

TEST_CASE("e2e nvcc: a Makefile's -dc compiles the kernel relocatable") {
  FixtureRepo repo;
  check_compared(pr_on(repo, "Makefile", "%.o: src/%.cu\n\tnvcc -O3 -dc $< -o $@\n"));
}
