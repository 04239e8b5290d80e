// SPDX-License-Identifier: Apache-2.0
// The whole `kforecast pr` stage on a synthetic repository: 200 .cu files (one kernel and one
// device helper each, plus host code), and a head commit that changes 100 kernels (50 in ways
// that change their code, 50 in ways that do not). Times, as medians of several runs:
//   - `git diff` of the same range (the baseline the design compares with);
//   - kforecast pr with NVRTC disabled (the non-compiling part: diff, scan, analysis, report);
//   - kforecast pr with NVRTC, cold cache and warm cache.
// Usage: pr_stage_bench [KFORECAST_BINARY] [RUNS]   (defaults: the built binary, 5)

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/subprocess.hpp"

namespace fs = std::filesystem;
using kforecast::run_process;

namespace {

void must(const std::vector<std::string>& argv, const fs::path& cwd) {
  auto result = run_process(argv, {.working_directory = cwd.string()});
  if (!result || result->exit_status != 0) {
    std::fprintf(stderr, "failed: %s\n%s\n", argv[0].c_str(),
                 result ? result->err.c_str() : result.error().message.c_str());
    std::exit(1);
  }
}

std::string kernel_file(int index, bool head) {
  // Even kernels change their arithmetic (code differs); odd ones only a redundant cast (same code).
  const bool changed = head && index < 100;
  const std::string body = !changed         ? "a[i] = helper_{0}(a[i]) * {1}.0f;"
                           : index % 2 == 0 ? "a[i] = helper_{0}(a[i]) * {1}.5f;"
                                            : "a[i] = (float)(helper_{0}(a[i]) * {1}.0f);";
  return fmt::format(fmt::runtime(R"(#include <cstdio>
#define SCALE_{0} {1}
__device__ float helper_{0}(float x) {{ return x * SCALE_{0} + 1.0f; }}
// Kernel number {0}.
__global__ void kernel_{0}(float* a, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {{ )" + body + R"( }}
}}
void launch_{0}(float* a, int n) {{ kernel_{0}<<<(n + 255) / 256, 256>>>(a, n); }}
)"),
                     index, index % 7 + 1);
}

fs::path make_repository() {
  const fs::path root = fs::temp_directory_path() / fmt::format("kf-pr-bench-{}", ::getpid());
  fs::remove_all(root);
  fs::create_directories(root / "src");
  must({"git", "init", "-q", "-b", "main", root.string()}, root);
  for (bool head : {false, true}) {
    for (int i = 0; i < 200; ++i) std::ofstream(root / fmt::format("src/kernel_{:03}.cu", i)) << kernel_file(i, head);
    must({"git", "add", "-A"}, root);
    must({"git", "-c", "user.name=bench", "-c", "user.email=bench@kforecast.invalid", "commit", "-q", "-m",
          head ? "head" : "base"},
         root);
  }
  // Packed, as a clone in CI is: loose objects would make every git command slower.
  must({"git", "gc", "-q"}, root);
  return root;
}

double median_ms(const std::vector<std::string>& argv, const fs::path& cwd, int runs, const std::string& cache = "") {
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    if (!cache.empty() && cache.find("cold") != std::string::npos) fs::remove_all(cache);
    const auto start = std::chrono::steady_clock::now();
    auto result = run_process(argv, {.working_directory = cwd.string()});
    const auto stop = std::chrono::steady_clock::now();
    if (!result || (result->exit_status != 0 && result->exit_status != 1)) {
      std::fprintf(stderr, "failed: %s\n", result ? result->err.c_str() : result.error().message.c_str());
      std::exit(1);
    }
    times.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const std::string binary = argc > 1 ? argv[1] : KF_BINARY;
  const int runs = argc > 2 ? std::stoi(argv[2]) : 5;
  const fs::path repo = make_repository();
  const std::string cold = (repo / ".git/cache-cold").string(), warm = (repo / ".git/cache-warm").string();
  auto pr = [&](std::vector<std::string> env) {
    std::vector<std::string> command{"env"};
    command.insert(command.end(), env.begin(), env.end());
    command.insert(command.end(), {binary, "pr", "--base", "HEAD~1", "--format", "json", "--output", "/dev/null"});
    return command;
  };
  const double git_diff = median_ms({"git", "diff", "HEAD~1", "HEAD"}, repo, runs);
  const double no_compile = median_ms(pr({"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"}), repo, runs);
  const double cold_ms = median_ms(pr({"XDG_CACHE_HOME=" + cold}), repo, runs, cold);
  median_ms(pr({"XDG_CACHE_HOME=" + warm}), repo, 1);  // fill the warm cache
  const double warm_ms = median_ms(pr({"XDG_CACHE_HOME=" + warm}), repo, runs);
  fs::remove_all(repo);

  std::printf("pr_stage_bench: 200 .cu files, 100 kernels changed (50 with new code), medians of %d runs\n", runs);
  std::printf("git diff HEAD~1 HEAD:             %8.1f ms  (baseline)\n", git_diff);
  std::printf("kforecast pr, no compiling:       %8.1f ms  %.2fx git diff (target <= 1.5x)\n", no_compile,
              no_compile / git_diff);
  std::printf("kforecast pr, NVRTC, cold cache:  %8.1f ms  %.2fx git diff\n", cold_ms, cold_ms / git_diff);
  std::printf("kforecast pr, NVRTC, warm cache:  %8.1f ms  %.2fx git diff\n", warm_ms, warm_ms / git_diff);
  return 0;
}
