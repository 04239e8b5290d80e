// SPDX-License-Identifier: Apache-2.0
// `kforecast lint --staged` on a typical pre-commit change: a repository of 10 .cu files with two
// kernels each (a tiled SGEMM and a reduction, plus a device helper, a shared header and host
// launch code), and a staged change that edits all 20 kernels. Times, as medians of several runs:
//   - `git diff --cached` (the floor any staged-change tool pays);
//   - kforecast lint with NVRTC disabled (source rules only; target < 300 ms);
//   - kforecast lint with NVRTC, cold cache (target < 1.5 s) and warm cache (target < 300 ms).
// Usage: lint_stage_bench [KFORECAST_BINARY] [RUNS]   (defaults: the built binary, 7)

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/subprocess.hpp"
#include "lint_fixture.hpp"
#include "process_timing.hpp"

namespace fs = std::filesystem;
using kforecast::run_process;
using kforecast::bench_fixture::kernel_file;

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

fs::path make_repository() {
  const fs::path root = fs::temp_directory_path() / fmt::format("kf-lint-bench-{}", ::getpid());
  fs::remove_all(root);
  fs::create_directories(root / "src");
  must({"git", "init", "-q", "-b", "main", root.string()}, root);
  std::ofstream(root / "src/common.cuh") << "#pragma once\n#define SCALE 2.0f\n";
  for (int i = 0; i < 10; ++i) std::ofstream(root / fmt::format("src/kernels_{}.cu", i)) << kernel_file(i, false);
  must({"git", "add", "-A"}, root);
  must({"git", "-c", "user.name=bench", "-c", "user.email=bench@kforecast.invalid", "commit", "-q", "-m", "base"},
       root);
  for (int i = 0; i < 10; ++i) std::ofstream(root / fmt::format("src/kernels_{}.cu", i)) << kernel_file(i, true);
  must({"git", "add", "-A"}, root);
  must({"git", "gc", "-q"}, root);
  return root;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string binary = argc > 1 && argv[1][0] != 0 ? argv[1] : KF_BINARY;
  const int runs = argc > 2 ? std::stoi(argv[2]) : 7;
  const fs::path repo = make_repository();
  const std::string cold = (repo / ".git/cache-cold").string(), warm = (repo / ".git/cache-warm").string();
  auto lint = [&](std::vector<std::string> env) {
    std::vector<std::string> command{"env"};
    command.insert(command.end(), env.begin(), env.end());
    command.insert(command.end(), {binary, "lint", "--staged", "--format", "json", "--output", "/dev/null"});
    return command;
  };
  // What the runs report, once, so the figures below are known to be about real findings.
  auto sample = run_process(lint({"XDG_CACHE_HOME=" + warm}), {.working_directory = repo.string()});
  const ProcessTiming git_diff = time_process({"git", "diff", "--cached"}, repo, runs);
  const ProcessTiming source_only =
      time_process(lint({"KFORECAST_NVRTC_LIBRARY=/nonexistent/libnvrtc.so"}), repo, runs);
  const ProcessTiming cold_ms = time_process(lint({"XDG_CACHE_HOME=" + cold}), repo, runs, cold);
  const ProcessTiming warm_ms = time_process(lint({"XDG_CACHE_HOME=" + warm}), repo, runs);
  auto text =
      run_process({"env", "XDG_CACHE_HOME=" + warm, binary, "lint", "--staged"}, {.working_directory = repo.string()});
  fs::remove_all(repo);

  const auto lines = text ? std::count(text->out.begin(), text->out.end(), '\n') : 0;
  std::printf("lint_stage_bench: 10 .cu files, 20 kernels changed and staged, %ld diagnostics, medians of %d runs\n",
              static_cast<long>(lines), runs);
  std::printf("%u CPU cores online; wall and CPU time (all threads and child processes)\n",
              static_cast<unsigned>(::sysconf(_SC_NPROCESSORS_ONLN)));
  const auto row = [](const char* what, ProcessTiming t, const char* target) {
    std::printf("%-36s %8.1f ms wall %8.1f ms CPU  %s\n", what, t.wall_ms, t.cpu_ms, target);
  };
  row("git diff --cached:", git_diff, "(floor)");
  row("kforecast lint --staged, no NVRTC:", source_only, "(target < 300 ms)");
  row("kforecast lint --staged, cold:", cold_ms, "(target < 1500 ms)");
  row("kforecast lint --staged, warm:", warm_ms, "(target < 300 ms)");
  if (sample && sample->exit_status > 1) return 1;
  return 0;
}
