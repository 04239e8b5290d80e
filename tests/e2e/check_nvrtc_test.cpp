// SPDX-License-Identifier: Apache-2.0
// `kforecast check` with NVRTC: a kernel whose machine code did not change is settled by the
// identical-code tier (speedup exactly 1, no forecast), whether its source did not change or
// changed only in a way the compiler erases; a candidate that no longer compiles fails (exit 1).
// Skipped (exit 77) where NVRTC is not installed.
#include <catch2/catch.hpp>

#include "base/environment.hpp"
#include "check_fixture.hpp"
#include "cuda/nvrtc.hpp"
#include "e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;
using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return missing_nvrtc(); }

namespace {

Run check(const FixtureRepo& repo, std::vector<std::string> args) {
  args.insert(args.begin(), "check");
  return run_kforecast(args, repo.path(), check_environment(repo));
}

}  // namespace

TEST_CASE("e2e: check settles an unchanged kernel by its identical machine code") {
  FixtureRepo repo;
  commit_scale_kernel(repo);
  auto unchanged = check(repo, {"src/scale.cu:copy"});
  INFO(unchanged.err);
  CHECK(unchanged.status == 0);
  CHECK_THAT(unchanged.out, Contains("decision      identical code"));
  CHECK_THAT(unchanged.out, Contains("machine code identical for sm_90"));
  CHECK_THAT(unchanged.out, Contains("no source change from src/scale.cu at HEAD"));
  CHECK_THAT(unchanged.out, Contains("copy  src/scale.cu:") && Contains("  unchanged\n"));  // not "modified"
  CHECK_THAT(unchanged.out, !Contains("forecast      bin"));

  // A renamed local variable: the source changed, the machine code did not.
  repo.write("src/scale.cu",
             "__global__ void scale(float* a, int n) {\n"
             "  int index = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  if (index < n) a[index] = a[index] * 2.0f;\n"
             "}\n");
  auto same_code = check(repo, {"src/scale.cu:scale"});
  INFO(same_code.out);
  CHECK(same_code.status == 0);
  CHECK_THAT(same_code.out, Contains("the kernel's own source changed"));
  CHECK_THAT(same_code.out, Contains("decision      identical code"));
}

TEST_CASE("e2e: check fails a candidate that no longer compiles") {
  FixtureRepo repo;
  commit_scale_kernel(repo);
  repo.write("src/scale.cu", "__global__ void scale(float* a, int n) { a[0] = undefined_name; }\n");
  auto broken = check(repo, {"src/scale.cu:scale"});
  CHECK(broken.status == 1);
  CHECK_THAT(broken.out, Contains("kforecast check: fail"));
  CHECK_THAT(broken.out, Contains("the head does not compile"));
}

TEST_CASE("e2e: check compiles a kernel that includes the project's own headers as <lib/header>") {
  // The shape of a library with its headers under include/NAME/, included as <NAME/...> by a
  // build given -I include: kforecast finds them in the tree, so the kernel is compiled, not
  // blanked into an error.
  FixtureRepo repo;
  repo.write("include/mylib/twice.cuh", "#pragma once\n__device__ inline float twice(float x) { return 2.0f * x; }\n");
  const auto kernel = [](const std::string& local) {
    return "#include <mylib/twice.cuh>\n__global__ void doubled(float* a, int n) {\n  int " + local +
           " = blockIdx.x * blockDim.x + threadIdx.x;\n  if (" + local + " < n) a[" + local + "] = twice(a[" + local +
           "]);\n}\n";
  };
  repo.write("src/doubled.cu", kernel("i"));
  repo.commit("base");
  repo.write("src/doubled.cu", kernel("index"));
  auto run = check(repo, {"src/doubled.cu:doubled"});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("decision      identical code"));
}
