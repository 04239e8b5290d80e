// SPDX-License-Identifier: Apache-2.0
// Benchmark: the bench stage's decision rule, simulated on the CPU. Each
// simulated decision draws A B B A rounds of block medians under a noise model measured on GPUs
// (a relative spread per block median of 10 samples: 1% at 5 us, 0.3% at 20 us, 0.2% at 50 us,
// 0.05% from 360 us on; growing as sqrt(10 / samples) for smaller blocks; 2% of blocks 1-5% slow)
// and runs three rules on them:
//   before  fixed looks: a 99% t interval after 4, 8, 16, 32 rounds, 10 samples a block
//   peeking that interval at 99% at every look of the sequential schedule (3, 4, 5, 6, 8, ...): naive peeking
//   now     statistics.hpp's SequentialTest (alpha spending over the looks) with the runner's
//           defaults (runner.hpp): blocks sized to the kernel (samples_per_block), its round cap
// and prints per kernel class and rule: false regressions in A/A, regressions when the truth is
// exactly the 2% tolerance (the case that tests the error rate), runs whose interval missed the
// truth at some look (peeking on: no early stop), planted 3% slowdowns caught, a 2.1% slowdown's
// outcomes, and the median rounds, samples and modelled GPU milliseconds of the timed rounds (the
// kernel's time plus ~60 us of spin and L2 flush per sample; the fixed costs, module load,
// correctness and warm-up, are not modelled: scripts/gpu-decision-time.sh measures them).
//
// Usage: decision_rule_bench [RUNS=2000] [SEED=1]

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bench/runner.hpp"
#include "bench/statistics.hpp"

namespace {

using kforecast::bench::decide;
using kforecast::bench::look_index;
using kforecast::bench::Round;
using kforecast::bench::round_log_speedup;
using kforecast::bench::samples_per_block;
using kforecast::bench::SequentialTest;
using kforecast::bench::speedup_interval;
using kforecast::bench::Verdict;

constexpr double tolerance = 0.02;
const kforecast::bench::RunnerOptions defaults;
constexpr double sample_overhead_us = 60;  // spin kernel and L2 flush around each sample (H100)

struct KernelClass {
  const char* name;
  double kernel_us;  // one sample's timed work (batched launches for short kernels)
  double spread;     // relative spread of a block median of 10 samples
};

constexpr KernelClass classes[] = {
    {"5 us (4 per sample)", 20, 0.01}, {"20 us", 20, 0.003},  {"50 us", 50, 0.002},
    {"360 us", 360, 0.0005},          {"1 ms", 1000, 0.0005}, {"5 ms", 5000, 0.0005},
};

enum class Rule { before, peeking, now };
constexpr const char* rule_name(Rule rule) {
  return rule == Rule::before ? "before" : rule == Rule::peeking ? "peeking" : "now";
}

class Noise {
 public:
  Noise(std::uint64_t seed, double spread, double slowdown) : m_generator(seed), m_spread(spread), m_slowdown(slowdown) {}
  double next() {
    return round_log_speedup({block(1), block(m_slowdown), block(m_slowdown), block(1)});
  }
  double slowdown() const { return m_slowdown; }

 private:
  double block(double time) {
    double value = time * (1 + std::normal_distribution<double>(0, m_spread)(m_generator));
    std::uniform_real_distribution<double> unit(0, 1);
    if (unit(m_generator) < 0.02) value *= 1.01 + 0.04 * unit(m_generator);
    return value;
  }
  std::mt19937_64 m_generator;
  double m_spread;
  double m_slowdown;
};

struct Decision {
  Verdict verdict = Verdict::inconclusive;
  bool missed = false;  // an interval excluded the truth at some look (only with keep_looking)
  int rounds = 0;
};

// One decision. keep_looking: every look to the cap is taken (the first verdict stands), to count
// the intervals' misses over all looks as a user who looks again would see them.
Decision decide_once(Rule rule, Noise& noise, bool keep_looking) {
  const double truth = 1 / noise.slowdown();
  Decision decision;
  std::optional<Verdict> verdict;
  const auto note_interval = [&](const kforecast::bench::SpeedupInterval& interval) {
    if (interval.low > truth || interval.high < truth) decision.missed = true;
  };
  if (rule == Rule::now) {
    SequentialTest test(0.99, tolerance);
    for (int round = 1; round <= defaults.max_rounds; ++round) {
      const auto at_look = test.add_round(noise.next());
      if (look_index(round) != 0) note_interval(test.interval());
      if (!verdict && at_look) {
        verdict = at_look;
        decision.rounds = round;
      }
      if (verdict && !keep_looking) break;
    }
    if (!verdict) verdict = test.final_look();
  } else {
    const int cap = rule == Rule::before ? 32 : defaults.max_rounds;
    std::vector<double> logs;
    for (int round = 1; round <= cap; ++round) {
      logs.push_back(noise.next());
      const bool look = rule == Rule::before ? round >= 4 && (round & (round - 1)) == 0 : look_index(round) != 0;
      if (!look) continue;
      const auto interval = speedup_interval(logs, 0.99);
      note_interval(interval);
      if (!verdict) {
        verdict = decide(interval, tolerance);
        if (verdict) decision.rounds = round;
      }
      if (verdict && !keep_looking) break;
    }
  }
  if (decision.rounds == 0) decision.rounds = rule == Rule::before ? 32 : defaults.max_rounds;
  decision.verdict = verdict.value_or(Verdict::inconclusive);
  return decision;
}

double median_of(std::vector<double> values) { return kforecast::bench::median(std::move(values)); }

struct Tally {
  int runs = 0, regressions = 0, same = 0, inconclusive = 0, missed = 0;
  std::vector<double> rounds;
  double percent(int count) const { return 100.0 * count / std::max(runs, 1); }
};

Tally simulate(Rule rule, const KernelClass& kernel, int samples, double slowdown, int runs, std::uint64_t seed,
               bool keep_looking) {
  const double spread = kernel.spread * std::sqrt(10.0 / samples);
  Noise noise(seed, spread, slowdown);
  Tally tally;
  for (int run = 0; run < runs; ++run) {
    const auto decision = decide_once(rule, noise, keep_looking);
    ++tally.runs;
    tally.regressions += decision.verdict == Verdict::regression;
    tally.same += decision.verdict == Verdict::same;
    tally.inconclusive += decision.verdict == Verdict::inconclusive;
    tally.missed += decision.missed;
    tally.rounds.push_back(decision.rounds);
  }
  return tally;
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(100, std::atoi(argv[1])) : 2000;
  const std::uint64_t seed = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1;
  std::printf(
      "decision_rule_bench: %d simulated decisions per cell, seed %llu, tolerance 2%%, confidence 99%%, now: at most %d "
      "rounds, blocks of %d to %d samples (%.0f us of samples)\n\n",
      runs, static_cast<unsigned long long>(seed), defaults.max_rounds, defaults.min_samples_per_block,
      defaults.samples_per_block, defaults.block_target_us);
  std::printf("%-20s %-8s %7s | %9s %9s %9s | %8s %8s | %13s | %6s %7s %9s\n", "kernel", "rule", "samples",
              "A/A regr", "at 2% regr", "misses", "3% caught", "3% rounds", "2.1%: regr/inc", "rounds", "samples",
              "GPU ms");
  int worst_false = 0, worst_boundary = 0;
  double worst_caught_20us_up = 100;
  for (const auto& kernel : classes) {
    for (const Rule rule : {Rule::before, Rule::peeking, Rule::now}) {
      const int samples =
          rule == Rule::now ? samples_per_block(kernel.kernel_us, defaults.block_target_us,
                                                defaults.min_samples_per_block, defaults.samples_per_block)
                            : 10;
      const auto aa = simulate(rule, kernel, samples, 1.0, runs, seed, false);
      const auto boundary = simulate(rule, kernel, samples, 1.02, runs, seed + 1, false);
      const auto misses = simulate(rule, kernel, samples, 1.0, runs, seed + 2, true);
      const auto planted = simulate(rule, kernel, samples, 1.03, runs, seed + 3, false);
      const auto borderline = simulate(rule, kernel, samples, 1.021, runs, seed + 4, false);
      const double aa_rounds = median_of(aa.rounds);
      const double aa_samples = aa_rounds * 4 * samples;
      const double gpu_ms = aa_samples * (kernel.kernel_us + sample_overhead_us) / 1000;
      std::printf("%-20s %-8s %7d | %8.2f%% %8.2f%% %8.2f%% | %7.1f%% %8.0f | %5.1f%%/%5.1f%% | %6.0f %7.0f %9.1f\n",
                  kernel.name, rule_name(rule), samples, aa.percent(aa.regressions),
                  boundary.percent(boundary.regressions), misses.percent(misses.missed),
                  planted.percent(planted.regressions), median_of(planted.rounds),
                  borderline.percent(borderline.regressions), borderline.percent(borderline.inconclusive), aa_rounds,
                  aa_samples, gpu_ms);
      if (rule == Rule::now) {
        worst_false = std::max({worst_false, aa.regressions});
        worst_boundary = std::max(worst_boundary, boundary.regressions);
        if (kernel.kernel_us >= 20 && kernel.spread < 0.01)
          worst_caught_20us_up = std::min(worst_caught_20us_up, planted.percent(planted.regressions));
      }
    }
  }
  std::printf("\ncolumns: A/A regr = false regressions of identical kernels; at 2%% regr = regressions when the\n"
              "candidate is exactly 2%% slower (a correct rule keeps this <= 1%%); misses = runs whose interval\n"
              "excluded the truth at some look when every look to the cap is taken (A/A); 3%% caught / rounds =\n"
              "planted 3%% slowdowns called regression, median rounds; 2.1%%: regr/inc = a 2.1%% slowdown called\n"
              "regression / ending inconclusive (borderline); rounds, samples, GPU ms = median per A/A decision,\n"
              "GPU ms of the timed rounds only (model: samples x (kernel + %.0f us)).\n",
              sample_overhead_us);
  std::printf("\nnow: worst false regressions in A/A %d of %d; worst at the tolerance %d of %d (%.2f%%); worst\n"
              "detection of 3%% for kernels >= 20 us %.1f%% (target >= 95%%)\n",
              worst_false, runs, worst_boundary, runs, 100.0 * worst_boundary / runs, worst_caught_20us_up);
  return 0;
}
