// SPDX-License-Identifier: Apache-2.0
// kforecast pr building like the project with the toolkit's nvcc: a template kernel instantiated
// only at a host launch site, in a unit with host code NVRTC cannot read, is settled as identical
// code; the report names the build and where its context came from, the project's
// compile_commands.json when there is one.
#include <catch2/catch.hpp>

#include "e2e/e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvcc(); }

namespace {

void commit_template_rename(const FixtureRepo& repo, const std::string& define) {
  repo.write("include/lib/scale.cuh",
             "#pragma once\ntemplate <int N> __global__ void scaled(float* p) {\n  float v = p[threadIdx.x % N];\n"
             "  p[threadIdx.x] = v * SCALE;\n}\n");
  repo.write("src/runner.cu",
             "#include <cstdint>\n#include <vector>\n#include <lib/scale.cuh>\n"
             "void run(float* p) {\n  std::vector<std::uint8_t> unused(1);\n  scaled<64><<<1, 64>>>(p);\n}\n");
  repo.write("build/compile_commands.json",
             "[{\"directory\": \"" + repo.path().string() + "\", \"file\": \"src/runner.cu\", \"arguments\": "
             "[\"nvcc\", \"-Iinclude\", \"" + define + "\", \"-std=c++17\", \"-arch=sm_86\", \"-c\", \"src/runner.cu\"]}]");
  repo.commit("base");
  repo.write("include/lib/scale.cuh",
             "#pragma once\ntemplate <int N> __global__ void scaled(float* p) {\n  float value = p[threadIdx.x % N];\n"
             "  p[threadIdx.x] = value * SCALE;\n}\n");
  repo.commit("head: a variable renamed");
}

}  // namespace

TEST_CASE("e2e nvcc: a template instantiated only from host code is identical code, built with the project's context") {
  FixtureRepo repo;
  commit_template_rename(repo, "-DSCALE=2.0f");
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path(),
                           {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"decision\": \"identical_code\""));
  CHECK_THAT(run.out, Contains("machine code identical for sm_90 (scaled<64>)"));
  CHECK_THAT(run.out, Contains("unit src/runner.cu, context build/compile_commands.json"));
  // The database's architecture is the project's; kforecast compiles for its own target.
  CHECK_THAT(run.out, !Contains("sm_86"));
}

TEST_CASE("e2e nvcc: a head that no longer compiles where the base did fails the gate with the first error") {
  FixtureRepo repo;
  commit_template_rename(repo, "-DSCALE=2.0f");
  repo.write("include/lib/scale.cuh",
             "#pragma once\ntemplate <int N> __global__ void scaled(float* p) {\n  float value = p[threadIdx.x % N];\n"
             "  p[threadIdx.x] = value * SCALE * undefined_factor;\n}\n");
  repo.commit("head: broken");
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json"}, repo.path());
  INFO(run.out << run.err);
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Contains("the head does not compile for sm_90"));
  CHECK_THAT(run.out, Contains("include/lib/scale.cuh(4): error: identifier \\\"undefined_factor\\\" is undefined"));
}

TEST_CASE("e2e nvcc: a tile constant changed in the runner alone reports the kernel whose instantiation changed") {
  // SGEMM_CUDA's shape: the kernel's header untouched, a constant that is its template argument
  // changed in the host runner. The report lists the kernel, not forecast, for a measurement.
  FixtureRepo repo;
  commit_template_rename(repo, "-DSCALE=2.0f");
  repo.write("src/runner.cu",
             "#include <cstdint>\n#include <vector>\n#include <lib/scale.cuh>\n"
             "void run(float* p) {\n  std::vector<std::uint8_t> unused(1);\n  const int tile = 32;\n"
             "  scaled<tile><<<1, 64>>>(p);\n}\n");
  repo.commit("the tile through a constant");
  repo.write("src/runner.cu",
             "#include <cstdint>\n#include <vector>\n#include <lib/scale.cuh>\n"
             "void run(float* p) {\n  std::vector<std::uint8_t> unused(1);\n  const int tile = 16;\n"
             "  scaled<tile><<<1, 64>>>(p);\n}\n");
  repo.commit("head: a smaller tile");
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json", "--no-bench"}, repo.path(),
                           {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("\"name\": \"scaled\""));
  CHECK_THAT(run.out, Contains("instantiation scaled<16> is built instead of scaled<32>"));
  CHECK_THAT(run.out, Contains("needs a GPU measurement"));
}

TEST_CASE("e2e nvcc: a unit that includes another .cu compiles though only it changed") {
  // llm.c's shape: test_gpt2.cu includes train_gpt2.cu; a commit touching only the test must
  // still hand nvcc the file it includes.
  FixtureRepo repo;
  repo.write("train.cu", "__global__ void step(float* p) { p[threadIdx.x] *= 2.0f; }\n"
                         "void train(float* p) { step<<<1, 32>>>(p); }\n");
  repo.write("test.cu", "#include \"train.cu\"\nint main() { return 0; }\n");
  repo.commit("base");
  repo.write("test.cu", "#include \"train.cu\"\nint main() { float* p = nullptr; train(p); return 0; }\n");
  repo.commit("head: the test runs a step");
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json", "--no-bench"}, repo.path(),
                           {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, Contains("1 of 1 unit compiled at both revisions"));
  CHECK_THAT(run.out, !Contains("No such file"));
}

TEST_CASE("e2e nvcc: a unit built for the scan's gaps that cannot compile is a warning, not a silent pass") {
  // vLLM's shape: every unit includes a framework header a CI checkout lacks. The change is one the
  // source scan does not follow (a host constexpr function that computes the launch's template
  // argument), so only the unit's machine code could show it; with that check unable to run,
  // "no CUDA kernel changed" alone would be said as if it had.
  FixtureRepo repo;
  const auto runner = [](int divisor) {
    return "#include <framework/api.h>\n#include \"kernels.cuh\"\n"
           "constexpr int tile_for(int n) { return n / " + std::to_string(divisor) + "; }\n"
           "void run(float* p) { scaled<tile_for(64)><<<1, 64>>>(p); }\n";
  };
  repo.write("src/kernels.cuh", "#pragma once\ntemplate <int N> __global__ void scaled(float* p) {\n"
                                "  p[threadIdx.x] = p[threadIdx.x % N] * 2.0f;\n}\n");
  repo.write("src/runner.cu", runner(2));
  repo.commit("base");
  repo.write("src/runner.cu", runner(4));
  repo.commit("head: a smaller tile");
  auto run = run_kforecast({"pr", "--base", "HEAD~1", "--format", "json", "--no-bench"}, repo.path(),
                           {"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"});
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.err, Contains("kforecast: warning: 1 unit built to find kernel changes the source scan cannot see "
                               "could not be compared: src/runner.cu: neither revision compiles"));
  CHECK_THAT(run.out, Contains("\"warnings\""));
  CHECK_THAT(run.out, Contains("compile_commands.json: docs/compile-context.md"));
}

TEST_CASE("e2e nvcc: on a terminal, the unit cache's line counts in words that agree") {
  // "1 compiles, 1 answers from the unit cache" was printed after a head edit with the base cached.
  // The line is for terminals only, so kforecast runs under script(1), which gives it one.
  FixtureRepo repo;
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 1.0f; }\nvoid run(float* a) { k<<<1, 1>>>(a); }\n");
  repo.commit("base");
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 2.0f; }\nvoid run(float* a) { k<<<1, 1>>>(a); }\n");
  repo.commit("head");
  const kforecast::testing::TempDir cache;
  std::string command = "env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/tmp XDG_CACHE_HOME=" + cache.path().string() +
                        " KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so";
  for (const auto& variable : kforecast::testing::toolkit_environment()) command += " '" + variable + "'";
  command += std::string(" ") + KF_BINARY + " pr --base HEAD~1 --no-bench --format json > /dev/null";
  const auto on_terminal = [&] {
    auto result = kforecast::run_process({"script", "-qec", command, "/dev/null"},
                                         {.working_directory = repo.path().string(), .timeout = std::chrono::seconds(120)});
    REQUIRE(result.has_value());
    return result->out;
  };
  const std::string cold = on_terminal();
  INFO(cold);
  CHECK_THAT(cold, Contains("2 compiles, 0 answers from the unit cache"));
  // A new head: the base's unit is answered from the cache, the head's compiled.
  repo.write("k.cu", "__global__ void k(float* a) { a[0] = 3.0f; }\nvoid run(float* a) { k<<<1, 1>>>(a); }\n");
  repo.commit("another head");
  const std::string warm = on_terminal();
  INFO(warm);
  CHECK_THAT(warm, Contains("1 compile, 1 answer from the unit cache"));
}
