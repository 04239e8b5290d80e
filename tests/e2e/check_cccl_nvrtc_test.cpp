// SPDX-License-Identifier: Apache-2.0
// `kforecast check` on a kernel that uses cooperative groups, whose header includes libcu++
// (`<cuda/std/...>`), which CUDA 13 keeps under include/cccl: the compiler is given that folder
// too, so the kernel is compiled and settled by its machine code. Skipped (exit 77) where NVRTC
// or a toolkit with include/cccl is not installed.
#include <filesystem>

#include <catch2/catch.hpp>

#include "base/environment.hpp"
#include "check_fixture.hpp"
#include "cuda/library_search.hpp"
#include "e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;
using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() {
  if (auto missing = missing_nvrtc()) return missing;
  const std::string include = cuda::toolkit_include_dir(process_environment());
  std::error_code ec;
  if (include.empty() || !std::filesystem::is_directory(include + "/cccl", ec))
    return "no CUDA 13 toolkit headers with include/cccl (" +
           (include.empty() ? std::string("no toolkit include folder found") : include + " has none") +
           "): install CUDA 13, set CUDA_HOME to it, or run scripts/setup.sh (CUDA 11 and 12 keep CCCL in include/)";
  return std::nullopt;
}

namespace {

std::string block_sum(const std::string& local) {
  return "#include <cooperative_groups.h>\n"
         "namespace cg = cooperative_groups;\n"
         "__global__ void block_sum(const float* x, float* out) {\n"
         "  __shared__ float partial[256];\n"
         "  cg::thread_block block = cg::this_thread_block();\n"
         "  const unsigned " +
         local +
         " = block.thread_rank();\n"
         "  partial[" +
         local + "] = x[blockIdx.x * 256 + " + local +
         "];\n"
         "  block.sync();\n"
         "  if (" +
         local +
         " == 0) {\n"
         "    float sum = 0;\n"
         "    for (int i = 0; i < 256; ++i) sum += partial[i];\n"
         "    out[blockIdx.x] = sum;\n"
         "  }\n"
         "}\n";
}

}  // namespace

TEST_CASE("e2e: a cooperative-groups kernel compiles with CUDA 13's cccl headers and is settled by its code") {
  FixtureRepo repo;
  repo.write("src/sum.cu", block_sum("rank"));
  repo.commit("base");
  repo.write("src/sum.cu", block_sum("lane"));  // a renamed local: the machine code is the same
  auto run = run_kforecast({"check", "src/sum.cu:block_sum"}, repo.path(), check_environment(repo));
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("decision      identical code"));
  CHECK_THAT(run.out, !Contains("could not be compiled"));
}
