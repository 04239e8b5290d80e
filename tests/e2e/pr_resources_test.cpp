// SPDX-License-Identifier: Apache-2.0
// Bounded resources: `kforecast pr` over a file of many kernels keeps its
// memory independent of kernels x file size; files over kernels.max_file_kib are skipped with a
// note; progress lines reach a CI log only when asked. The big fixture is generated here, at run
// time. NVRTC is kept out (KFORECAST_NVRTC_LIBRARY=/nonexistent): compiles run in child processes
// whose memory is not kforecast's, and the test must run on any CI machine.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "support/temp_dir.hpp"

namespace kforecast::e2e {
namespace {

// A kernel of about 2 KB, and a changed version of it (every body line differs).
std::string kernel(int index, bool changed) {
  std::string text = fmt::format("__global__ void k{}(const float* x, float* y, int n) {{\n", index);
  text += "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= n) return;\n  float acc = x[i];\n";
  for (int step = 0; step < 40; ++step)
    text += fmt::format("  acc = fmaf(x[(i + {}) % n], {}.{}f, acc);  // step\n", step * 3 + 1, index % 9 + step,
                        changed ? 5 : 0);
  return text + "  y[i] = acc;\n}\n\n";
}

std::string kernel_file(int kernels, bool head) {
  std::string text = "#define TILE 32\n__device__ float twice(float v) { return 2.0f * v; }\n\n";
  for (int k = 0; k < kernels; ++k) text += kernel(k, head && k % 10 != 0);
  return text;
}

struct MeasuredRun {
  int status = -1;
  long peak_kib = 0;  // the process's own peak RSS (children not counted)
  std::string out, err;
};

// The sanitizer build's runtime reserves terabytes of address space and inflates every
// allocation, so memory bounds are checked in the release build alone.
#ifdef KF_SANITIZED
constexpr bool memory_is_measurable = false;
#else
constexpr bool memory_is_measurable = true;
#endif

// Runs kforecast with its own peak RSS measured (wait4), and an address-space limit so that a
// regression fails the test quickly instead of taking the machine's memory.
MeasuredRun run_measured(const std::vector<std::string>& args, std::size_t address_space_bytes) {
  const testing::TempDir scratch;
  const std::string out_path = (scratch.path() / "out").string(), err_path = (scratch.path() / "err").string();
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const rlimit limit{address_space_bytes, address_space_bytes};
    ::setrlimit(RLIMIT_AS, &limit);
    std::freopen(out_path.c_str(), "w", stdout);
    std::freopen(err_path.c_str(), "w", stderr);
    std::vector<std::string> argv{KF_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> pointers;
    for (auto& arg : argv) pointers.push_back(arg.data());
    pointers.push_back(nullptr);
    std::vector<std::string> env{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/tmp/kf-pr-resources-home",
                                 "XDG_CACHE_HOME=/tmp/kf-pr-resources-cache", "KFORECAST_NVRTC_LIBRARY=/nonexistent"};
    std::vector<char*> environment;
    for (auto& entry : env) environment.push_back(entry.data());
    environment.push_back(nullptr);
    ::execve(KF_BINARY, pointers.data(), environment.data());
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  REQUIRE(::wait4(pid, &status, 0, &usage) == pid);
  MeasuredRun run;
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.peak_kib = usage.ru_maxrss;
  auto slurp = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return text;
  };
  run.out = slurp(out_path);
  run.err = slurp(err_path);
  return run;
}

}  // namespace

TEST_CASE("pr resources: a 2 MB file of 1,000 changed kernels stays within a few times its size") {
  if (!memory_is_measurable) {
    WARN("not checked in the sanitizer build: its runtime needs more address space than the cap");
    return;
  }
  FixtureRepo repo;
  repo.write("src/many.cu", kernel_file(1000, false));
  const std::string base = repo.commit("base");
  repo.write("src/many.cu", kernel_file(1000, true));
  const std::string head = repo.commit("head");
  REQUIRE(std::filesystem::file_size(repo.path() / "src/many.cu") > 2'000'000);

  // Before texts were shared, each kernel held copies of its whole file (10 GB for 1,000 kernels
  // in 1.8 MB); a 2 GiB address space ends such a run in std::bad_alloc, exit 3.
  const auto run = run_measured(
      {"pr", "--repo", repo.path().string(), "--base", base, "--head", head, "--no-bench", "--format", "json"},
      std::size_t{2} << 30);
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(run.out.find("\"name\": \"k999\"") != std::string::npos);
  INFO("peak RSS " << run.peak_kib / 1024 << " MiB");
  CHECK(run.peak_kib < 300 * 1024);
}

TEST_CASE("pr resources: files above kernels.max_file_kib are skipped with a note naming them") {
  FixtureRepo repo;
  repo.write(".kforecast.toml", "[kernels]\nmax_file_kib = 8\n");
  repo.write("src/big.cu", kernel_file(10, false));  // about 20 KB
  repo.write("src/small.cu", kernel_file(1, false));
  const std::string base = repo.commit("base");
  repo.write("src/big.cu", kernel_file(10, true));
  repo.write("src/small.cu", kernel_file(2, true));
  const std::string head = repo.commit("head");

  const auto run = run_kforecast(
      {"pr", "--repo", repo.path().string(), "--base", base, "--head", head, "--no-bench", "--format", "json"}, {},
      {"KFORECAST_NVRTC_LIBRARY=/nonexistent"});
  INFO(run.err);
  REQUIRE(run.status == 0);
  CHECK(run.out.find("\"src/big.cu: skipped, ") != std::string::npos);
  CHECK(run.out.find(" KiB is above kernels.max_file_kib (8 KiB): its kernels are not reviewed\"") !=
        std::string::npos);
  CHECK(run.out.find("\"file\": \"src/big.cu\"") == std::string::npos);  // none of its kernels, not even as removed
  CHECK(run.out.find("\"file\": \"src/small.cu\"") != std::string::npos);
}

TEST_CASE("pr resources: progress reaches a log only when asked") {
  FixtureRepo repo;
  repo.write("src/a.cu", kernel_file(3, false));
  const std::string base = repo.commit("base");
  repo.write("src/a.cu", kernel_file(3, true));
  const std::string head = repo.commit("head");
  const std::vector<std::string> args{"pr",     "--repo", repo.path().string(), "--base",   base,
                                      "--head", head,     "--no-bench",         "--format", "json"};
  const std::vector<std::string> env{"KFORECAST_NVRTC_LIBRARY=/nonexistent"};

  SECTION("quiet by default: standard error is not a terminal") {
    const auto run = run_kforecast(args, {}, env);
    CHECK(run.status == 0);
    CHECK(run.err.find("kforecast: scanning") == std::string::npos);
  }
  SECTION("--progress: one plain line per stage, with the counts") {
    auto with_flag = args;
    with_flag.push_back("--progress");
    const auto run = run_kforecast(with_flag, {}, env);
    CHECK(run.status == 0);
    CHECK(run.err.find("kforecast: scanning both revisions") != std::string::npos);
    // k0 is the same at both revisions: two kernels changed.
    CHECK(run.err.find("kforecast: forecasting 0/2 kernels") != std::string::npos);
    CHECK(run.err.find("kforecast: forecasting 2/2 kernels") == std::string::npos);  // within 10 s of the stage line
    CHECK(run.err.find('\r') == std::string::npos);
  }
  SECTION("KFORECAST_PROGRESS=1 asks the same") {
    auto with_env = env;
    with_env.push_back("KFORECAST_PROGRESS=1");
    const auto run = run_kforecast(args, {}, with_env);
    CHECK(run.err.find("kforecast: writing the report") != std::string::npos);
  }
}

}  // namespace kforecast::e2e
