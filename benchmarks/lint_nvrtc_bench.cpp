// SPDX-License-Identifier: Apache-2.0
// Where a cold `kforecast lint` spends its NVRTC time, and what the lint's choices save: the
// bench's 10 files (2 kernels each) compiled for sm_90 as the lint compiles them, CPU time of
// this process (every NVRTC thread), medians of RUNS rounds. CPU time, not wall: on a shared
// machine it is the steady figure, and a compile's wall time is its CPU time over the cores
// it gets.
//
//   lint_nvrtc_bench [RUNS]
//
// Rows: each file compiled whole with NVRTC's full built-in header (the lint before), the same
// with -minimal, then the lint's own path (gather_compiler_facts: -minimal, in parallel) for
// the 20-kernel change and for a change to one kernel per file (the other's body left out).

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "base/environment.hpp"
#include "lint_run/lint_compiler_facts.hpp"
#include "cuda/nvrtc.hpp"
#include "kernels/device_source.hpp"
#include "kernels/scanner.hpp"
#include "lint_fixture.hpp"

namespace {

using namespace kforecast;

double process_cpu_ms() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

const std::string include_dir = "/usr/local/cuda/include";
const std::string common_header = "#pragma once\n#define SCALE 2.0f\n";

cuda::CompileRequest request_for(const std::string& text, const std::string& name) {
  const auto device =
      kernels::device_source(text, kernels::scan_cuda_source(text), [](std::string_view) { return false; });
  cuda::CompileRequest request{device.text, name, "sm_90"};
  request.include_dirs = {include_dir};
  request.options = {"-default-device"};
  request.headers.push_back({"common.cuh", common_header});
  return request;
}

template <typename F>
double median_cpu_ms(int runs, F&& round) {
  std::vector<double> cpu;
  for (int r = 0; r < runs; ++r) {
    const double before = process_cpu_ms();
    round();
    cpu.push_back(process_cpu_ms() - before);
  }
  std::ranges::sort(cpu);
  return cpu[cpu.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  // --once VARIANT: one file compiled once (none, full, minimal, lint-all, lint-one), for
  // `valgrind --tool=callgrind`, whose instruction counts do not depend on the machine's load.
  const std::string once = argc > 2 && std::string(argv[1]) == "--once" ? argv[2] : "";
  const int runs = argc > 1 && once.empty() ? std::stoi(argv[1]) : 5;
  auto compiler = cuda::load_nvrtc({}, process_environment());
  if (!compiler) {
    std::fprintf(stderr, "lint_nvrtc_bench: %s\n", compiler.error().message().c_str());
    return 77;
  }
  std::vector<std::string> texts;
  for (int i = 0; i < 10; ++i) texts.push_back(bench_fixture::kernel_file(i, true));
  if (!once.empty()) {
    const std::vector<std::uint32_t> every = [&] {
      std::vector<std::uint32_t> lines;
      for (std::uint32_t line = 1; line <= 80; ++line) lines.push_back(line);
      return lines;
    }();
    const auto at = texts[0].find("Bs[k][tx]");
    const std::vector<std::uint32_t> sgemm{static_cast<std::uint32_t>(
        std::count(texts[0].begin(), texts[0].begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1)};
    const std::vector<cuda::SourceHeader> headers{{"common.cuh", common_header}};
    auto request = request_for(texts[0], "kernels_0.cu");
    if (once == "minimal") request.options.push_back("-minimal");
    if (once == "full" || once == "minimal") return (*compiler)->compile(request) ? 0 : 1;
    if (once == "separate10" || once == "combined10") {
      std::string combined;
      for (std::size_t i = 0; i < texts.size(); ++i) {
        auto each = request_for(texts[i], fmt::format("kernels_{}.cu", i));
        each.options.push_back("-minimal");
        if (once == "separate10" && !(*compiler)->compile(each)) return 1;
        combined += each.source + "\n";
      }
      if (once == "separate10") return 0;
      request.source = combined;
      request.options.push_back("-minimal");
      auto output = (*compiler)->compile(request);
      return output && output->functions.size() >= 20 ? 0 : 1;
    }
    if (once == "lint-all" || once == "lint-one")
      lint_run::gather_compiler_facts(**compiler,
                                 {{"kernels_0.cu", texts[0], headers, {}, once == "lint-all" ? &every : &sgemm}},
                                 "sm_90", std::nullopt, include_dir);
    return 0;
  }
  (void)(*compiler)->compile(request_for(texts[0], "warm-up.cu"));  // NVRTC's one-time start-up

  const auto whole = [&](bool minimal) {
    for (std::size_t i = 0; i < texts.size(); ++i) {
      auto request = request_for(texts[i], fmt::format("kernels_{}.cu", i));
      if (minimal) request.options.push_back("-minimal");
      if (!(*compiler)->compile(request)) std::exit(1);
    }
  };
  // The lint's path: added lines for every kernel (the 20-kernel change) or for sgemm only.
  std::vector<std::vector<std::uint32_t>> all_lines(texts.size()), sgemm_lines(texts.size());
  std::vector<lint_run::FactsRequest> all, one;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const auto lines = static_cast<std::uint32_t>(std::ranges::count(texts[i], '\n'));
    for (std::uint32_t line = 1; line <= lines; ++line) all_lines[i].push_back(line);
    const auto at = texts[i].find("Bs[k][tx]");  // the changed line inside sgemm's loop
    sgemm_lines[i] = {static_cast<std::uint32_t>(
        std::count(texts[i].begin(), texts[i].begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1)};
  }
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const std::vector<cuda::SourceHeader> headers{{"common.cuh", common_header}};
    all.push_back({fmt::format("kernels_{}.cu", i), texts[i], headers, {}, &all_lines[i]});
    one.push_back({fmt::format("kernels_{}.cu", i), texts[i], headers, {}, &sgemm_lines[i]});
  }
  const auto lint_path = [&](const std::vector<lint_run::FactsRequest>& files, std::size_t kernels_each) {
    const auto facts = lint_run::gather_compiler_facts(**compiler, files, "sm_90", std::nullopt, include_dir);
    for (const auto& [path, kernels] : facts.by_path)
      if (kernels.size() != kernels_each) std::exit(1);
  };

  const double full = median_cpu_ms(runs, [&] { whole(false); });
  const double minimal = median_cpu_ms(runs, [&] { whole(true); });
  const double lint_all = median_cpu_ms(runs, [&] { lint_path(all, 2); });
  const double lint_one = median_cpu_ms(runs, [&] { lint_path(one, 1); });
  std::printf("lint_nvrtc_bench: NVRTC %s, sm_90, 10 files, CPU ms per round (median of %d)\n",
              (*compiler)->version().text().c_str(), runs);
  std::printf("%-58s %8.1f\n", "whole files, full built-in header (before):", full);
  std::printf("%-58s %8.1f  (%.0f%%)\n", "whole files, -minimal:", minimal, 100 * minimal / full);
  std::printf("%-58s %8.1f  (%.0f%%)\n", "lint path, 20 kernels changed:", lint_all, 100 * lint_all / full);
  std::printf("%-58s %8.1f  (%.0f%%)\n", "lint path, 1 kernel per file changed (10 kernels):", lint_one,
              100 * lint_one / full);
  return 0;
}
