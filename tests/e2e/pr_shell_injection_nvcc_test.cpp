// SPDX-License-Identifier: Apache-2.0
// kforecast pr with nvcc on a head whose build files define a macro holding a command. nvcc runs
// its steps through `sh -c` with each -D in double quotes, so before the define check the command
// ran: `$(echo +KF_RAN)` made the macro `1+KF_RAN`. The define is refused with a note naming it
// and its file, from each source a project states flags in, and the command never runs.
#include <catch2/catch.hpp>

#include "e2e/e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvcc(); }

namespace {

// The command's output spelled so that the build file's text does not already hold it.
constexpr std::string_view payload = R"(1$(echo +KF_R""AN))";

void commit_kernel(const FixtureRepo& repo, const std::string& factor) {
  repo.write("src/k.cu",
             "#ifndef SCALE\n#define SCALE 1\n#endif\n__global__ void k(float* p) {\n  p[threadIdx.x] = "
             "SCALE * " +
                 factor + ";\n}\n");
}

void check_refused(const Run& run, std::string_view source) {
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out + run.err, !Contains("KF_RAN"));
  CHECK_THAT(run.out, Contains("which the shell nvcc runs its steps in would act on"));
  CHECK_THAT(run.out, Contains(std::string(source)));
}

}  // namespace

TEST_CASE("e2e nvcc: a define holding a command in CMakeLists.txt is refused, naming it, and never runs") {
  FixtureRepo repo;
  repo.write("CMakeLists.txt", "project(p LANGUAGES CXX CUDA)\nadd_library(k src/k.cu)\n");
  commit_kernel(repo, "2.0f");
  repo.commit("base");
  repo.write("CMakeLists.txt", fmt::format("project(p LANGUAGES CXX CUDA)\nadd_compile_definitions(\"SCALE={}\")\n"
                                           "add_library(k src/k.cu)\n",
                                           payload));
  commit_kernel(repo, "3.0f");
  repo.commit("head");
  check_refused(run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path()), "CMakeLists.txt:2");
}

TEST_CASE("e2e nvcc: a define holding a command in compile_commands.json is refused and never runs") {
  FixtureRepo repo;
  commit_kernel(repo, "2.0f");
  repo.commit("base");
  repo.write(
      "build/compile_commands.json",
      fmt::format(
          R"([{{"directory": "{}", "file": "src/k.cu", "arguments": ["nvcc", "-DSCALE={}", "-c", "src/k.cu"]}}])",
          repo.path().string(), std::string(payload).replace(payload.find("\"\""), 2, "\\\"\\\"")));
  commit_kernel(repo, "3.0f");
  repo.commit("head");
  check_refused(run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path()), "-DSCALE=1$(echo");
}

TEST_CASE("e2e nvcc: a define holding a command in setup.py is refused, naming it, and never runs") {
  FixtureRepo repo;
  repo.write("setup.py", "from torch.utils.cpp_extension import CUDAExtension\n");
  commit_kernel(repo, "2.0f");
  repo.commit("base");
  repo.write("setup.py",
             fmt::format("from torch.utils.cpp_extension import CUDAExtension\n"
                         "ext = CUDAExtension('k', ['src/k.cu'], extra_compile_args={{'nvcc': ['-DSCALE={}']}})\n",
                         payload));
  commit_kernel(repo, "3.0f");
  repo.commit("head");
  check_refused(run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path()), "setup.py:2");
}
