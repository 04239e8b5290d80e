// SPDX-License-Identifier: Apache-2.0
#pragma once

// The statistics of a measurement (BENCHMARKING.md, steps 6 to 8), pure so they are tested on
// synthetic samples without a GPU. A block is 10-20 timed samples of one kernel; its statistic
// is the median. Blocks run in A B B A rounds (A the reference, B the candidate), which cancels a
// drift that is linear in time; each round gives one log speedup, and the interval is over
// rounds — never over raw samples, which are not independent.

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace kforecast::bench {

double median(std::vector<double> values);

// Block medians of one A B B A round, in the order they ran.
struct Round {
  double reference_first = 0;
  double candidate_first = 0;
  double candidate_second = 0;
  double reference_second = 0;
};

// log(t_reference / t_candidate) for the round: positive when the candidate is faster.
double round_log_speedup(const Round& round);

// The speedup t_reference / t_candidate with its confidence interval.
struct SpeedupInterval {
  double speedup = 1;
  double low = 1;
  double high = 1;
  int rounds = 0;
};

// A Student-t interval on the mean of `log_speedups` at `confidence` (two-sided), mapped back
// with exp. Fewer than 2 rounds give an infinitely wide interval.
SpeedupInterval speedup_interval(std::span<const double> log_speedups, double confidence);

// The p-quantile of Student's t with `dof` degrees of freedom (p in (0, 1), dof >= 1).
double student_t_quantile(double p, int dof);

enum class Verdict { faster, same, regression, inconclusive, failed };
std::string_view verdict_name(Verdict verdict);

// Step 8's rule with tolerance `tolerance` (0.02 is 2%) on both sides: REGRESSION when the whole
// interval lies below 1/(1+tolerance), FASTER when above 1+tolerance, SAME when inside both
// bounds; nullopt while none holds (measure more).
std::optional<Verdict> decide(const SpeedupInterval& interval, double tolerance);

// Whether the sequential rule looks after this many rounds: 4, 8, 16, 32, ...
bool is_look(int rounds);

// A block whose median SM clock fell more than `allowed_drop` below the run's median clock is
// redone (step 6).
bool clock_dropped(double block_clock_mhz, double run_median_clock_mhz, double allowed_drop = 0.03);

// Launches per sample so that a sample lasts at least `target_us` (step 5), at most `max_batch`.
int batch_size(double one_launch_us, double target_us = 20.0, int max_batch = 1000);

// Several problem sizes combine by the geometric mean of their speedups and of their bounds.
SpeedupInterval combine_sizes(std::span<const SpeedupInterval> sizes);

// The verdict over several sizes: failed if any failed; otherwise the rule on the combined
// interval, and inconclusive where it decides nothing.
Verdict combine_verdicts(std::span<const Verdict> verdicts, const SpeedupInterval& combined, double tolerance);

}  // namespace kforecast::bench
