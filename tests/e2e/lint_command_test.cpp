// SPDX-License-Identifier: Apache-2.0
// `kforecast lint` and `kforecast rules` as a user runs them: files and staged changes in real
// git repositories, formats, exit codes, config, and the git hook installer.

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "e2e.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// No NVRTC in these tests: they are about the source rules and must not depend on the machine.
const std::string no_nvrtc = "KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so";

constexpr std::string_view clean_kernel =
    "__global__ void k(float* __restrict__ x, int n) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) x[i] = 2.0f * x[i];\n"
    "}\n";

std::string git_commit(FixtureRepo& repo, const std::string& message) {
  auto result = kforecast::run_process({"env", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t.invalid",
                                        "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t.invalid", "git", "-C",
                                        repo.path().string(), "commit", "-q", "-m", message});
  REQUIRE(result.has_value());
  return std::to_string(result->exit_status) + result->out + result->err;
}

}  // namespace

TEST_CASE("e2e: lint FILE prints compiler-style diagnostics and exits 0 on warnings") {
  FixtureRepo repo;
  repo.write("k.cu", "__global__ void k(float* __restrict__ x) {\n  x[0] = x[0] * 0.1;\n}\n");
  auto run = run_kforecast({"lint", "k.cu"}, repo.path(), {no_nvrtc});
  CHECK(run.status == 0);
  CHECK_THAT(run.out, StartsWith("k.cu:2:17: warning: '0.1' is a double"));
  CHECK_THAT(run.out, Contains("[double-literal]\n"));
  CHECK_THAT(run.out, !Contains("\x1b["));  // not a terminal: no colour
}

TEST_CASE("e2e: lint exits 1 when an error rule fires, and colours on request unless NO_COLOR") {
  FixtureRepo repo;
  repo.write("k.cu", "__global__ void k(float* x) {\n  if (threadIdx.x < 4) __syncthreads();\n  __syncthreads();\n}\n");
  auto run = run_kforecast({"lint", "k.cu"}, repo.path(), {no_nvrtc});
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Contains("k.cu:2:24: error:"));
  CHECK_THAT(run.out, Contains("[syncthreads-in-divergent-branch]"));
  auto coloured = run_kforecast({"lint", "k.cu", "--color", "always"}, repo.path(), {no_nvrtc});
  CHECK_THAT(coloured.out, Contains("\x1b[01;31merror:"));
  auto no_color = run_kforecast({"lint", "k.cu"}, repo.path(), {no_nvrtc, "NO_COLOR=1"});
  CHECK_THAT(no_color.out, !Contains("\x1b["));
}

TEST_CASE("e2e: lint --format json and sarif") {
  FixtureRepo repo;
  repo.write("k.cu", "__global__ void k(float* x) {\n  if (threadIdx.x < 4) __syncthreads();\n  __syncthreads();\n}\n");
  auto json = run_kforecast({"lint", "k.cu", "--format", "json"}, repo.path(), {no_nvrtc});
  CHECK(json.status == 1);
  CHECK_THAT(json.out, Contains("\"rule\": \"syncthreads-in-divergent-branch\""));
  CHECK_THAT(json.out, Contains("forecast not run: no commit yet (HEAD)"));
  CHECK_THAT(json.out, Contains("NVRTC not found"));
  auto sarif = run_kforecast({"lint", "k.cu", "--format", "sarif", "--output", "out.sarif"}, repo.path(), {no_nvrtc});
  CHECK(sarif.status == 1);
  std::ifstream file(repo.path() / "out.sarif");
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Contains("\"version\": \"2.1.0\""));
  CHECK_THAT(text, Contains("\"startLine\": 2"));
  CHECK(run_kforecast({"lint", "k.cu", "--format", "xml"}, repo.path()).status == 2);
}

TEST_CASE("e2e: lint --staged reports on the added lines only") {
  FixtureRepo repo;
  repo.write("k.cu", "__global__ void k(float* __restrict__ x) {\n  x[0] *= 0.1;\n  x[1] = 1.0f;\n}\n");
  repo.commit("base: an old double literal on line 2");
  repo.write("k.cu", "__global__ void k(float* __restrict__ x) {\n  x[0] *= 0.1;\n  x[1] *= 0.3;\n}\n");
  repo.write("notes.txt", "x = 0.5\n");
  repo.git({"add", "k.cu", "notes.txt"});
  auto run = run_kforecast({"lint", "--staged", "--no-forecast"}, repo.path(), {no_nvrtc});
  CHECK(run.status == 0);
  CHECK(run.out ==
        "k.cu:3:11: warning: '0.3' is a double: the float arithmetic around it runs in FP64 (up to 64x slower "
        "on GPUs with little FP64) [double-literal]\n"
        "k.cu:3:11: note: write it with an f suffix: 0.3f\n"
        "kforecast: note: compiler facts not gathered (register, spill and stack rules skipped): NVRTC not found "
        "(tried /nonexistent/libnvrtc.so): compiler facts and benchmarks unavailable; install the CUDA toolkit's "
        "NVRTC or set cuda.nvrtc_library / KFORECAST_NVRTC_LIBRARY\n");
  // What is only in the work tree is not what the commit records.
  repo.write("k.cu", "__global__ void k(float* __restrict__ x) {\n  x[0] *= 0.1;\n  x[1] *= 0.3;\n  x[2] *= 0.7;\n}\n");
  CHECK(run_kforecast({"lint", "--staged", "--no-forecast"}, repo.path(), {no_nvrtc}).out == run.out);
}

TEST_CASE("e2e: lint config: disabled rules, ignored paths, repository rules") {
  FixtureRepo repo;
  repo.write("k.cu",
             "__global__ void k(float* x, float* y) {\n  x[0] = y[0] * 0.1;  // kforecast: ignore double-literal\n"
             "  printf(\"%f\", y[1]);\n}\n");
  repo.write("third_party/t.cu", "__global__ void t(float* x) {\n  x[0] *= 0.1;\n}\n");
  auto before = run_kforecast({"lint", "k.cu", "third_party/t.cu"}, repo.path(), {no_nvrtc});
  CHECK_THAT(before.out, Contains("[missing-restrict]"));
  CHECK_THAT(before.out, Contains("[printf-in-kernel]"));
  CHECK_THAT(before.out, Contains("third_party/t.cu:2:11"));
  CHECK_THAT(before.out, !Contains("k.cu:2:"));  // the comment silences it
  CHECK(before.status == 0);

  repo.write(".kforecast.toml",
             "[lint]\ndisable = [\"missing-restrict\"]\nignore_paths = [\"third_party/*\"]\n"
             "rules_path = \"lint-rules\"\n");
  repo.write("lint-rules/strict.toml", "[[rule]]\nid = \"printf-in-kernel\"\nseverity = \"error\"\n");
  auto after = run_kforecast({"lint", "k.cu", "third_party/t.cu"}, repo.path(), {no_nvrtc});
  CHECK_THAT(after.out, !Contains("[missing-restrict]"));
  CHECK_THAT(after.out, !Contains("third_party"));
  CHECK_THAT(after.out, Contains("k.cu:3:3: error:"));
  CHECK(after.status == 1);
  auto listed = run_kforecast({"rules"}, repo.path());
  CHECK_THAT(listed.out, Contains("printf-in-kernel"));
  CHECK_THAT(listed.out, !Contains("missing-restrict"));

  repo.write("lint-rules/strict.toml", "[[rule]]\nid = \"printf-in-kernel\"\nseverity = \"fatal\"\n");
  auto bad = run_kforecast({"lint", "k.cu"}, repo.path(), {no_nvrtc});
  CHECK(bad.status == 2);
  CHECK_THAT(bad.err, Contains("lint-rules/strict.toml:3:12: severity 'fatal'"));
}

TEST_CASE("e2e: lint usage errors") {
  FixtureRepo repo;
  repo.write("k.cu", std::string(clean_kernel));
  CHECK(run_kforecast({"lint"}, repo.path()).status == 2);
  CHECK(run_kforecast({"lint", "--staged", "k.cu"}, repo.path()).status == 2);
  auto missing = run_kforecast({"lint", "nope.cu"}, repo.path());
  CHECK(missing.status == 2);
  CHECK_THAT(missing.err, Contains("cannot read 'nope.cu'"));
  auto clean = run_kforecast({"lint", "k.cu"}, repo.path(), {no_nvrtc});
  CHECK(clean.status == 0);
  // No diagnostic, but the rules that could not run are said, never silent.
  CHECK(clean.out ==
        "kforecast: note: compiler facts not gathered (register, spill and stack rules skipped): NVRTC not found "
        "(tried /nonexistent/libnvrtc.so): compiler facts and benchmarks unavailable; install the CUDA toolkit's "
        "NVRTC or set cuda.nvrtc_library / KFORECAST_NVRTC_LIBRARY\n");
}

TEST_CASE("e2e: rules lists the rules and explains one") {
  auto list = run_kforecast({"rules"});
  CHECK(list.status == 0);
  CHECK_THAT(list.out, Contains("syncthreads-in-divergent-branch   error"));
  auto one = run_kforecast({"rules", "shared-bank-conflict"});
  CHECK(one.status == 0);
  CHECK_THAT(one.out, Contains("Fires on:\n"));
  CHECK_THAT(one.out, Contains("__shared__ float tile[32][33];"));
  CHECK_THAT(one.out, Contains("https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/"));
  auto typo = run_kforecast({"rules", "shared-bank-conflicts"});
  CHECK(typo.status == 2);
  CHECK_THAT(typo.err, Contains("did you mean 'shared-bank-conflict'?"));
}

TEST_CASE("e2e: lint --install-hook writes a git hook that blocks an error and allows the rest") {
  FixtureRepo repo;
  repo.write("k.cu", std::string(clean_kernel));
  repo.commit("base");
  auto installed = run_kforecast({"lint", "--install-hook"}, repo.path());
  REQUIRE(installed.status == 0);
  const auto hook = repo.path() / ".git/hooks/pre-commit";
  REQUIRE(std::filesystem::exists(hook));
  CHECK((std::filesystem::status(hook).permissions() & std::filesystem::perms::owner_exec) !=
        std::filesystem::perms::none);

  repo.write("k.cu", "__global__ void k(float* x) {\n  if (threadIdx.x < 4) __syncthreads();\n  __syncthreads();\n}\n");
  repo.git({"add", "k.cu"});
  const std::string blocked = git_commit(repo, "a divergent barrier");
  CHECK_THAT(blocked, StartsWith("1"));
  CHECK_THAT(blocked, Contains("[syncthreads-in-divergent-branch]"));
  CHECK(repo.git({"rev-list", "--count", "HEAD"}) == "1\n");

  repo.write("k.cu", "__global__ void k(float* __restrict__ x) {\n  x[threadIdx.x] *= 0.1;\n}\n");
  repo.git({"add", "k.cu"});
  const std::string allowed = git_commit(repo, "a warning only");
  CHECK_THAT(allowed, StartsWith("0"));
  CHECK_THAT(allowed, Contains("[double-literal]"));
  CHECK(repo.git({"rev-list", "--count", "HEAD"}) == "2\n");

  // Reinstalling replaces kforecast's own hook; a foreign one needs --force.
  CHECK(run_kforecast({"lint", "--install-hook"}, repo.path()).status == 0);
  std::ofstream(hook) << "#!/bin/sh\necho mine\n";
  auto refused = run_kforecast({"lint", "--install-hook"}, repo.path());
  CHECK(refused.status == 2);
  CHECK_THAT(refused.err, Contains("is not kforecast's"));
  std::ifstream kept(hook);
  CHECK(std::string((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>()) ==
        "#!/bin/sh\necho mine\n");
  CHECK(run_kforecast({"lint", "--install-hook", "--force"}, repo.path()).status == 0);
  auto outside = run_kforecast({"lint", "--install-hook", "--repo", "/"});
  CHECK(outside.status == 2);
}

TEST_CASE("e2e: lint --staged before the first commit, and with deleted and non-CUDA files") {
  FixtureRepo repo;
  repo.write("k.cu", "__global__ void k(float* __restrict__ x) {\n  x[0] *= 0.1;\n}\n");
  repo.git({"add", "k.cu"});
  auto first = run_kforecast({"lint", "--staged"}, repo.path(), {no_nvrtc});
  CHECK(first.status == 0);
  CHECK_THAT(first.out, StartsWith("k.cu:2:11: warning:"));
  repo.commit("first");
  repo.git({"rm", "-q", "k.cu"});
  repo.write("data.bin", std::string("\0\1\2", 3));
  repo.git({"add", "data.bin"});
  auto removed = run_kforecast({"lint", "--staged"}, repo.path(), {no_nvrtc});
  CHECK(removed.status == 0);
  CHECK(removed.out.empty());
}
