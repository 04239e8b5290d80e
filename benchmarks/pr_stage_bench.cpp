// SPDX-License-Identifier: Apache-2.0
// The whole `kforecast pr` stage on a synthetic repository: 200 .cu files (one kernel and one
// device helper each, plus host code), and a head commit that changes 100 kernels (50 in ways
// that change their code, 50 in ways that do not). Times, as medians of several runs:
//   - `git diff` of the same range (the baseline the design compares with);
//   - kforecast pr with NVRTC disabled (the non-compiling part: diff, scan, analysis, report);
//   - kforecast pr with NVRTC, cold cache and warm cache.
// Each line gives the median and the fastest wall time and the median CPU time.
// Usage: pr_stage_bench [KFORECAST_BINARY] [RUNS] [--no-nvrtc]   (defaults: the built binary, 5)

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "base/subprocess.hpp"
#include "process_timing.hpp"

namespace fs = std::filesystem;
using kforecast::run_process;

using kforecast::bench_support::ProcessTiming;
using kforecast::bench_support::time_process;

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

}  // namespace

int main(int argc, char** argv) {
  const std::string binary = argc > 1 ? argv[1] : KF_BINARY;
  const int runs = argc > 2 ? std::stoi(argv[2]) : 5;
  // --no-nvrtc: only the non-compiling part, for quick reruns while tuning it.
  const bool with_nvrtc = !(argc > 3 && std::string_view(argv[3]) == "--no-nvrtc");
  const fs::path repo = make_repository();
  const std::string cold = (repo / ".git/cache-cold").string(), warm = (repo / ".git/cache-warm").string();
  // The variables are set in this process, which kforecast inherits: through `env` the timing
  // would include starting a second program (about a millisecond here), which git diff's does not.
  const std::vector<std::string> pr{binary, "pr", "--base", "HEAD~1", "--format", "json", "--output", "/dev/null"};
  auto with_env = [](const char* name, const std::string& value, auto&& run) {
    ::setenv(name, value.c_str(), 1);
    auto result = run();
    ::unsetenv(name);
    return result;
  };
  const ProcessTiming git_diff = time_process({"git", "diff", "HEAD~1", "HEAD"}, repo, runs);
  const ProcessTiming no_compile =
      with_env("KFORECAST_NVRTC_LIBRARY", "/nonexistent/libnvrtc.so", [&] { return time_process(pr, repo, runs); });
  std::optional<ProcessTiming> cold_run, warm_run;
  if (with_nvrtc) {
    cold_run = with_env("XDG_CACHE_HOME", cold, [&] { return time_process(pr, repo, runs, cold); });
    with_env("XDG_CACHE_HOME", warm, [&] { return time_process(pr, repo, 1); });  // fill the warm cache
    warm_run = with_env("XDG_CACHE_HOME", warm, [&] { return time_process(pr, repo, runs); });
  }
  fs::remove_all(repo);

  std::printf("pr_stage_bench: 200 .cu files, 100 kernels changed (50 with new code), %d runs each\n", runs);
  std::printf("%-34s %9s %9s %9s %s\n", "", "median", "min", "CPU", "median vs git diff");
  auto row = [&](const char* what, const ProcessTiming& t, const char* note) {
    std::printf("%-34s %6.1f ms %6.1f ms %6.1f ms %.2fx%s\n", what, t.wall_ms, t.fastest_wall_ms, t.cpu_ms,
                t.wall_ms / git_diff.wall_ms, note);
  };
  row("git diff HEAD~1 HEAD:", git_diff, " (baseline)");
  row("kforecast pr, no compiling:", no_compile, " (target <= 1.5x)");
  if (cold_run) row("kforecast pr, NVRTC, cold cache:", *cold_run, "");
  if (warm_run) row("kforecast pr, NVRTC, warm cache:", *warm_run, "");
  return 0;
}
