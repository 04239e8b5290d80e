// SPDX-License-Identifier: Apache-2.0
#pragma once

// Times a whole command, as a user waits for it: the benches of the pr and lint stages run the
// real binary (and the git it runs) several times and keep medians. Wall time is what a user
// waits; CPU time (user + system of the process and every child it waited for) is what the stage
// costs, and varies less when other work shares the machine.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "base/subprocess.hpp"

namespace kforecast::bench_support {

struct ProcessTiming {
  double wall_ms = 0;          // median
  double fastest_wall_ms = 0;  // minimum
  double cpu_ms = 0;           // median
};

inline double children_cpu_ms() {
  rusage usage{};
  ::getrusage(RUSAGE_CHILDREN, &usage);
  const auto ms = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3;
  };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

// `runs` runs of `argv` in `cwd`; `remove_before_each`, when given, is deleted before every run
// (a cache that must start cold). Exit 0 or 1 (a gate's answer) is a run; anything else stops
// the bench, since its figures would time a failure.
inline ProcessTiming time_process(const std::vector<std::string>& argv, const std::filesystem::path& cwd, int runs,
                                  const std::filesystem::path& remove_before_each = {}) {
  std::vector<double> wall, cpu;
  for (int r = 0; r < runs; ++r) {
    if (!remove_before_each.empty()) std::filesystem::remove_all(remove_before_each);
    const double cpu_before = children_cpu_ms();
    const auto start = std::chrono::steady_clock::now();
    auto result = run_process(argv, {.working_directory = cwd.string()});
    const auto stop = std::chrono::steady_clock::now();
    if (!result || (result->exit_status != 0 && result->exit_status != 1)) {
      std::fprintf(stderr, "failed: %s\n", result ? result->err.c_str() : result.error().message.c_str());
      std::exit(1);
    }
    wall.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
    cpu.push_back(children_cpu_ms() - cpu_before);
  }
  std::sort(wall.begin(), wall.end());
  std::sort(cpu.begin(), cpu.end());
  return {wall[wall.size() / 2], wall.front(), cpu[cpu.size() / 2]};
}

}  // namespace kforecast::bench_support
