// SPDX-License-Identifier: Apache-2.0
// Benchmark: the host work of the bench runner's correctness check, which sits on the GPU clock
// (src/bench/pair_run.cpp): drawing a buffer's initial values (bench::initial_values) and comparing the
// reference's outputs with the candidate's (bench::compare_outputs), for 1M-element buffers of the
// types specs use most. A 1 ms kernel's confirmed decision checks three seeds, so each
// millisecond here is about 3 ms of GPU time per decision (docs/perf/bench-runner.md).
// Prints the median over rounds of ms per 1M elements, in process CPU time (the machine is
// shared; wall time beside it).
//
// Usage: host_buffers_bench [ROUNDS=7] [ELEMENTS=1048576]

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "bench/element_type.hpp"
#include "bench/host_buffers.hpp"

namespace {

using kforecast::bench::ResolvedArgument;

double process_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

ResolvedArgument buffer(const char* type, const char* init_text, kforecast::bench::Distribution distribution,
                        double a, double b, std::int64_t count) {
  ResolvedArgument argument;
  argument.name = "x";
  argument.type = *kforecast::bench::element_type(type);
  argument.buffer = true;
  argument.count = count;
  argument.init.distribution = distribution;
  argument.init.a = a;
  argument.init.b = b;
  argument.init.text = init_text;
  argument.rtol = 1e-4;
  argument.atol = 1e-5;
  return argument;
}

// Median ms of CPU and wall time per call of `work`, over `rounds` rounds of at least 0.2 s each.
std::pair<double, double> time_ms(int rounds, const std::function<void()>& work) {
  std::vector<double> cpu, wall;
  for (int r = 0; r < rounds; ++r) {
    const double cpu_start = process_seconds();
    const auto wall_start = std::chrono::steady_clock::now();
    int n = 0;
    while (n < 3 || process_seconds() - cpu_start < 0.2) {
      work();
      ++n;
    }
    cpu.push_back((process_seconds() - cpu_start) * 1e3 / n);
    wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - wall_start).count() / n);
  }
  return {median(cpu), median(wall)};
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 7;
  const std::int64_t elements = argc > 2 ? std::atoll(argv[2]) : 1 << 20;
  if (rounds < 1 || elements < 1) {
    std::fprintf(stderr, "usage: host_buffers_bench [ROUNDS=7] [ELEMENTS=1048576]\n");
    return 2;
  }
  using kforecast::bench::Distribution;
  struct Case {
    const char* type;
    const char* init;
    Distribution distribution;
    double a, b;
  };
  const Case cases[] = {
      {"float", "uniform(-1, 1)", Distribution::uniform, -1, 1},
      {"float", "normal(0, 1)", Distribution::normal, 0, 1},
      {"double", "uniform(-1, 1)", Distribution::uniform, -1, 1},
      {"__half", "uniform(-1, 1)", Distribution::uniform, -1, 1},
      {"int", "randint(0, 1000)", Distribution::random_integers, 0, 1000},
      {"float4", "uniform(-1, 1)", Distribution::uniform, -1, 1},
  };
  const double per_million = 1048576.0 / static_cast<double>(elements);
  std::printf("host_buffers_bench: %lld elements per buffer, %d rounds; ms per 1M elements, process CPU (wall)\n",
              static_cast<long long>(elements), rounds);
  std::printf("%-8s %-18s %20s %24s %24s\n", "type", "init", "initial_values", "compare (same bytes)",
              "compare (1 ulp apart)");
  for (const Case& c : cases) {
    const auto argument = buffer(c.type, c.init, c.distribution, c.a, c.b, elements);
    std::uint64_t seed = 1;
    std::size_t sink = 0;
    const auto [draw_cpu, draw_wall] = time_ms(rounds, [&] { sink += initial_values(argument, seed++).size(); });
    const auto reference = initial_values(argument, 1);
    auto same = reference;
    // The same values one bit apart in the lowest byte of every lane: within tolerance, not identical.
    auto nudged = reference;
    for (std::size_t i = 0; i < nudged.size(); i += static_cast<std::size_t>(argument.type.lane_bytes))
      nudged[i] ^= std::byte{1};
    const auto [same_cpu, same_wall] =
        time_ms(rounds, [&] { sink += compare_outputs(argument, reference, same).mismatches == 0; });
    const auto [near_cpu, near_wall] =
        time_ms(rounds, [&] { sink += compare_outputs(argument, reference, nudged).mismatches == 0; });
    std::printf("%-8s %-18s %11.2f (%6.2f) %15.2f (%6.2f) %15.2f (%6.2f)\n", c.type, c.init, draw_cpu * per_million,
                draw_wall * per_million, same_cpu * per_million, same_wall * per_million, near_cpu * per_million,
                near_wall * per_million);
    if (sink == 0) std::printf("(unreachable)\n");
  }
  return 0;
}
