// SPDX-License-Identifier: Apache-2.0
// What compiling code under review in a confined child costs: the lint bench's 10
// kernel files (2 kernels each, -minimal, sm_90) compiled with NVRTC in this process (the
// baseline: no confinement) and through IsolatedCompiler (include check, a fresh
// `kforecast __compile-child` per compile, NVRTC loaded there, Landlock, the answer read back).
// Wall time, medians of RUNS rounds, sequential compiles; the ratio is the figure to watch.
//
//   isolated_compile_bench [RUNS]

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/environment.hpp"
#include "cuda/isolated_compiler.hpp"
#include "cuda/library_search.hpp"
#include "cuda/nvrtc.hpp"
#include "kernels/device_source.hpp"
#include "kernels/scanner.hpp"
#include "lint_fixture.hpp"

namespace {

using namespace kforecast;

cuda::CompileRequest request_for(const std::string& text, const std::string& name, const std::string& include) {
  const auto device =
      kernels::device_source(text, kernels::scan_cuda_source(text), [](std::string_view) { return false; });
  cuda::CompileRequest request{device.text, name, "sm_90"};
  request.include_dirs = {include};
  request.options = {"-default-device", "-minimal"};
  request.headers.push_back({"common.cuh", "#pragma once\n#define SCALE 2.0f\n"});
  return request;
}

template <typename F>
double median_wall_ms(int runs, F&& round) {
  std::vector<double> wall;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    round();
    wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::ranges::sort(wall);
  return wall[wall.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::stoi(argv[1]) : 5;
  const auto env = process_environment();
  auto in_process = cuda::load_nvrtc({}, env);
  auto for_child = cuda::load_nvrtc({}, env);
  const std::string include = cuda::toolkit_include_dir(env);
  if (!in_process || !for_child || include.empty()) {
    std::fprintf(stderr, "isolated_compile_bench: NVRTC and the toolkit's headers are needed\n");
    return 77;
  }
  cuda::IsolationSettings settings;
  settings.program = KF_BINARY;
  settings.roots.toolkit = {include};
  const cuda::IsolatedCompiler isolated(std::move(*for_child), settings);

  std::vector<cuda::CompileRequest> requests;
  for (int i = 0; i < 10; ++i)
    requests.push_back(request_for(bench_fixture::kernel_file(i, true), fmt::format("kernels_{}.cu", i), include));
  const auto compile_all = [&](const cuda::Compiler& compiler) {
    for (const auto& request : requests)
      if (!compiler.compile(request)) std::exit(1);
  };
  compile_all(**in_process);  // NVRTC's one-time start-up in this process
  const double baseline = median_wall_ms(runs, [&] { compile_all(**in_process); });
  const double child = median_wall_ms(runs, [&] { compile_all(isolated); });
  std::printf("10 files, 20 kernels, sm_90, -minimal; median of %d rounds, wall time\n", runs);
  std::printf("%-34s %9.1f ms  (%.1f ms a compile)\n", "NVRTC in this process (before)", baseline, baseline / 10);
  std::printf("%-34s %9.1f ms  (%.1f ms a compile)\n", "isolated child per compile (now)", child, child / 10);
  std::printf("%-34s %9.2fx  (+%.1f ms a compile)\n", "ratio", child / baseline, (child - baseline) / 10);
  return 0;
}
