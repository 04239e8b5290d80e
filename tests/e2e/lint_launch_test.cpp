// SPDX-License-Identifier: Apache-2.0
// The launch-spec lint rules as a user meets them: a '// kforecast:' block above a kernel or a
// [[kernel]] table in .kforecast.toml gives the launch; low-occupancy and
// launch-bounds-contradicted fire on it, suppressions silence them, and a spec that does not
// read or bind is a diagnostic that names the spec's place.

#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "launch_kernel.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

namespace {

// Source rules and launch specs only: NVRTC's registers are lint_launch_nvrtc_test.cpp's subject.
const std::string no_nvrtc = "KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so";

Run lint(FixtureRepo& repo, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"lint", "k.cu", "--no-forecast"};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_kforecast(args, repo.path(), {no_nvrtc});
}

}  // namespace

TEST_CASE("e2e: low-occupancy fires for a launch that leaves the SM mostly idle, not for a good one") {
  FixtureRepo repo;
  // One warp per block and 64 KiB of shared memory each: 3 blocks fit on an H100 SM, 3 of 64 warps.
  repo.write("k.cu", kernel(32, 65536));
  auto run = lint(repo);
  INFO(run.out << run.err);
  CHECK(run.status == 0);  // a warning
  CHECK_THAT(run.out, Contains("k.cu:9:1: warning: theoretical occupancy 5% for blocks of 32 threads and 65536 B "
                               "of dynamic shared memory: few resident warps"));
  CHECK_THAT(run.out, Contains("[low-occupancy]"));
  // What the figure rests on, and the fix, on the note line.
  CHECK_THAT(run.out, Contains("k.cu:9:1: note: from H100 (sm_90), assuming 32 registers per thread and no static "
                               "shared memory: no compiler facts; spec k.cu:"));
  CHECK_THAT(run.out, Contains("fewer registers or less shared memory per block raise it"));

  // 256 threads and 8 KiB: 8 blocks of 8 warps, the whole SM.
  repo.write("k.cu", kernel(256, 8192));
  CHECK(lint(repo).out.find("low-occupancy") == std::string::npos);

  // The threshold is the rule's data: a repository can raise it.
  repo.write(".kforecast.toml", "[lint]\nrules_path = \"rules.toml\"\n");
  repo.write("rules.toml",
             "[[rule]]\nid = \"low-occupancy\"\n[rule.match]\nkind = \"launch_fact\"\n"
             "fact = \"occupancy\"\nbelow = 101\n");
  CHECK_THAT(lint(repo).out, Contains("theoretical occupancy 100% for blocks of 256 threads"));
}

TEST_CASE("e2e: launch-bounds-contradicted fires when the spec's block exceeds __launch_bounds__") {
  FixtureRepo repo;
  repo.write("k.cu", kernel(512, 0, "__launch_bounds__(256) "));
  auto run = lint(repo);
  INFO(run.out << run.err);
  CHECK(run.status == 1);  // an error: the launch would fail
  CHECK_THAT(run.out, Contains("k.cu:9:1: error: 512 threads per block (k.cu:"));
  CHECK_THAT(run.out, Contains("against __launch_bounds__(256): the launch fails with cudaErrorLaunchOutOfResources"));
  CHECK_THAT(run.out, Contains("[launch-bounds-contradicted]"));

  repo.write("k.cu", kernel(256, 0, "__launch_bounds__(256) "));
  run = lint(repo);
  CHECK(run.status == 0);
  CHECK(run.out.find("launch-bounds-contradicted") == std::string::npos);

  // Without a spec there is nothing to contradict.
  repo.write("k.cu", "__global__ void __launch_bounds__(256) k(float* __restrict__ x) { x[0] = 1.0f; }\n");
  CHECK(lint(repo).out.find("launch-bounds-contradicted") == std::string::npos);
}

TEST_CASE("e2e: the launch rules are silenced on the kernel's line or per path") {
  FixtureRepo repo;
  repo.write("k.cu", kernel(512, 0, "__launch_bounds__(256) ", "  // kforecast: ignore launch-bounds-contradicted"));
  auto run = lint(repo);
  INFO(run.out << run.err);
  CHECK(run.status == 0);
  CHECK(run.out.find("launch-bounds-contradicted") == std::string::npos);

  repo.write("k.cu", kernel(32, 65536));
  repo.write(".kforecast.toml", "[lint]\nignore_paths = [\"k.cu:low-occupancy\"]\n");
  CHECK(lint(repo).out.find("low-occupancy") == std::string::npos);
}

TEST_CASE("e2e: a [[kernel]] table in the config is a launch spec too") {
  FixtureRepo repo;
  repo.write("k.cu",
             "__global__ void __launch_bounds__(128) k(float* __restrict__ x, int n) {\n"
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] = 0.0f;\n}\n");
  repo.write(".kforecast.toml",
             "[[kernel]]\nname = \"k\"\nsizes = [{ n = 4096 }]\ngrid = [\"ceil_div(n, 256)\"]\n"
             "block = [256]\n[kernel.args]\nx = { count = \"n\" }\nn = \"n\"\n");
  auto run = lint(repo);
  INFO(run.out << run.err);
  CHECK(run.status == 1);
  CHECK_THAT(run.out, Contains("k.cu:1:1: error: 256 threads per block ("));
  CHECK_THAT(run.out, Contains(".kforecast.toml:1) against __launch_bounds__(128)"));
}

TEST_CASE("e2e: a launch spec that does not read or bind is a diagnostic naming its place") {
  FixtureRepo repo;
  // Line 3 is not TOML.
  repo.write("k.cu", "// kforecast:\n// sizes = [{ n = 1024 }]\n// grid = [\n__global__ void k(float* x, int n) {}\n");
  auto run = lint(repo);
  INFO(run.out << run.err);
  CHECK(run.status == 0);  // a warning: the rules skip the kernel, the commit is not blocked by it
  CHECK_THAT(run.out, Contains("k.cu:4:1: warning: the launch spec above kernel 'k' does not read, so the launch "
                               "rules skip it: k.cu:"));
  CHECK_THAT(run.out, Contains("[launch-spec]"));

  // It reads, but names an argument the kernel does not have.
  repo.write("k.cu", kernel(256, 0).replace(kernel(256, 0).find("// n = \"n\""), 10, "// m = \"n\""));
  run = lint(repo);
  CHECK_THAT(run.out, Contains("the launch spec for kernel 'k' (k.cu:"));
  CHECK_THAT(run.out, Contains("does not fit it, so the launch rules skip it:"));

  // A broken [[kernel]] table in the config is the config's error, named there.
  repo.write("k.cu", "__global__ void k(float* x, int n) {}\n");
  repo.write(".kforecast.toml", "[[kernel]]\nname = \"k\"\nblock = \"many\"\n");
  run = lint(repo);
  CHECK(run.status == 2);
  CHECK_THAT(run.err, Contains(".kforecast.toml"));
}

TEST_CASE("e2e: each launch rule's own example fires, and its corrected form does not") {
  for (const std::string id : {"low-occupancy", "launch-bounds-contradicted"}) {
    INFO(id);
    auto explained = run_kforecast({"rules", id});
    REQUIRE(explained.status == 0);
    // The examples as `kforecast rules ID` prints them: four spaces in, after their headings.
    const auto example = [&](const std::string& heading) {
      const auto start = explained.out.find(heading + "\n");
      REQUIRE(start != std::string::npos);
      std::string text;
      std::size_t at = start + heading.size() + 1;
      while (at < explained.out.size() && explained.out.compare(at, 4, "    ") == 0) {
        const auto end = explained.out.find('\n', at);
        text += explained.out.substr(at + 4, end - at - 4) + "\n";
        at = end + 1;
      }
      return text;
    };
    FixtureRepo repo;
    repo.write("k.cu", example("Fires on:"));
    auto bad = lint(repo);
    INFO(bad.out << bad.err);
    CHECK_THAT(bad.out, Contains("[" + id + "]"));
    repo.write("k.cu", example("Corrected:"));
    auto good = lint(repo);
    INFO(good.out);
    CHECK(good.out.find("[" + id + "]") == std::string::npos);
    CHECK(good.out.find("[launch-spec]") == std::string::npos);
  }
}
