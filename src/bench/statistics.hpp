// SPDX-License-Identifier: Apache-2.0
#pragma once

// The statistics of a measurement, pure so they are tested on
// synthetic samples without a GPU. A block is 10-20 timed samples of one kernel; its statistic
// is the median. Blocks run in A B B A rounds (A the reference, B the candidate), which cancels a
// drift that is linear in time; each round gives one log speedup, and the interval is over
// rounds — never over raw samples, which are not independent.

#include <limits>
#include <optional>
#include <span>
#include <string>
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

// The decision rule with tolerance `tolerance` (0.02 is 2%) on both sides: REGRESSION when the whole
// interval lies below 1/(1+tolerance), FASTER when above 1+tolerance, SAME when inside both
// bounds; nullopt while none holds (measure more).
std::optional<Verdict> decide(const SpeedupInterval& interval, double tolerance);

// The sequential rule. The interval is looked at after 3, 4, 5, 6, 8, 10, 12, 16, 20, 24,
// 32, 40, 48, ... rounds (every round to 6, then every 2, 4, and from 24 every 8), and the j-th look
// is a Student-t interval at two-sided error alpha_j = alpha * 6 / (pi^2 j^2), alpha = 1 -
// confidence. The alpha_j sum to at most alpha over any number of looks, so by the union bound the
// probability that any look's interval misses the true speedup is at most alpha however many
// looks are taken and wherever the measurement stops: the intervals form a confidence sequence.
// Looking at 99% every time (a plain repeated interval) does not: each look adds its own 1% of
// misses (benchmarks/decision_rule_bench.cpp shows the inflation). Why this spending: the 1/j^2 series
// gives the early looks most of the error, which is where clear cases (same well inside the
// tolerance, a large regression) stop, and it never runs out, so raising the round cap or the GPU
// time cap keeps the coverage. Why Student t at each look: the round log-speedups are close to
// normal (medians of blocks) with a variance that must be estimated; the union bound needs no
// assumption about how the looks depend on each other.
inline constexpr int first_look_rounds = 3;

// The 1-based index of the look taken after `rounds` rounds; 0 when no look is taken then.
int look_index(int rounds);

// The two-sided error the `look`-th look spends of the total `alpha`.
double look_alpha(int look, double alpha);

// The rule run over rounds as they come, for the runner and the decision benchmark.
class SequentialTest {
 public:
  SequentialTest(double confidence, double tolerance) : m_alpha(1 - confidence), m_tolerance(tolerance) {}

  // Adds a round's log speedup; at a look, takes it and returns the verdict where it decides.
  std::optional<Verdict> add_round(double log_speedup);
  // The measurement ends between looks (the time or round cap): one more look at the rounds so
  // far, spending the next look's error, so its interval is as valid as a scheduled one.
  std::optional<Verdict> final_look();

  // The interval of the last look taken (infinitely wide before the first).
  const SpeedupInterval& interval() const { return m_interval; }
  const std::vector<double>& log_speedups() const { return m_logs; }
  int looks() const { return m_looks; }

 private:
  std::optional<Verdict> look();

  double m_alpha;
  double m_tolerance;
  std::vector<double> m_logs;
  SpeedupInterval m_interval{1, 0, std::numeric_limits<double>::infinity(), 0};
  int m_looks = 0;
  int m_last_look_rounds = 0;
};

// An undecided measurement whose point estimate is slower than the tolerance while its interval
// straddles it: "borderline: 2.1% slower, interval [0.8%, 3.4%] slower straddles the 2%
// tolerance". Empty for any other interval. The verdict stays inconclusive (the evidence does
// not reach the confidence a regression needs); this is the reason the report gives.
std::string borderline_reason(const SpeedupInterval& interval, double tolerance);

// How a speedup interval reads as a slowdown: "2.1% slower, interval [0.8%, 3.4%]".
std::string slowdown_text(const SpeedupInterval& interval);

// A regression is confirmed in a fresh process because a process can carry a bias of
// its own that the A B B A rounds cannot see: where its buffers and modules were placed. The
// largest such effect measured is 2.2% (separately allocated buffers); this
// bound is above it. A regression whose whole interval lies beyond the tolerance by more than the
// bound cannot be made by such a bias, so a second process adds no evidence about it.
inline constexpr double process_bias_bound = 0.025;
bool beyond_process_bias(const SpeedupInterval& interval, double tolerance, double bias = process_bias_bound);

// A block whose median SM clock fell more than `allowed_drop` below the run's median clock is
// redone.
bool clock_dropped(double block_clock_mhz, double run_median_clock_mhz, double allowed_drop = 0.03);

// Launches per sample so that a sample lasts at least `target_us`, at most `max_batch`.
int batch_size(double one_launch_us, double target_us = 20.0, int max_batch = 1000);

// Samples per block so that a block's timed work lasts about `block_target_us`, between
// `fewest` and `most`: a 20 us sample gets the most (a block median of 10 damps its noise), a
// 1 ms or 5 ms kernel the fewest (its samples barely vary, and each costs the GPU a millisecond).
int samples_per_block(double sample_us, double block_target_us, int fewest, int most);

// Several problem sizes combine by the geometric mean of their speedups and of their bounds.
SpeedupInterval combine_sizes(std::span<const SpeedupInterval> sizes);

// The verdict over several sizes: failed if any failed; otherwise the rule on the combined
// interval, and inconclusive where it decides nothing.
Verdict combine_verdicts(std::span<const Verdict> verdicts, const SpeedupInterval& combined, double tolerance);

}  // namespace kforecast::bench
