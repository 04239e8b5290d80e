// SPDX-License-Identifier: Apache-2.0
#include "bench/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

#include <fmt/format.h>

namespace kforecast::bench {
namespace {

// The regularised incomplete beta function I_x(a, b), by its continued fraction (Lentz).
double incomplete_beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    d = std::fabs(d) < tiny ? tiny : d;
    c = 1 + aa / c;
    c = std::fabs(c) < tiny ? tiny : c;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    d = std::fabs(d) < tiny ? tiny : d;
    c = 1 + aa / c;
    c = std::fabs(c) < tiny ? tiny : c;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::fabs(step - 1) < 1e-15) break;
  }
  return h;
}

double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * incomplete_beta_fraction(a, b, x) / a;
  return 1 - front * incomplete_beta_fraction(b, a, 1 - x) / b;
}

double student_t_cdf(double t, int dof) {
  const double v = dof;
  const double tail = 0.5 * incomplete_beta(v / 2, 0.5, v / (v + t * t));
  return t >= 0 ? 1 - tail : tail;
}

}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  if (values.size() % 2 == 1) return *middle;
  const double upper = *middle;
  const double lower = *std::max_element(values.begin(), middle);
  return (lower + upper) / 2;
}

double round_log_speedup(const Round& round) {
  return std::log((round.reference_first + round.reference_second) / (round.candidate_first + round.candidate_second));
}

double student_t_quantile(double p, int dof) {
  if (p == 0.5) return 0;
  if (p < 0.5) return -student_t_quantile(1 - p, dof);
  double low = 0, high = 1;
  while (student_t_cdf(high, dof) < p && high < 1e12) high *= 2;
  for (int i = 0; i < 200 && high - low > 1e-12 * high; ++i) {
    const double middle = (low + high) / 2;
    (student_t_cdf(middle, dof) < p ? low : high) = middle;
  }
  return (low + high) / 2;
}

SpeedupInterval speedup_interval(std::span<const double> log_speedups, double confidence) {
  SpeedupInterval interval;
  interval.rounds = static_cast<int>(log_speedups.size());
  if (log_speedups.empty()) {
    interval.low = 0;
    interval.high = std::numeric_limits<double>::infinity();
    return interval;
  }
  const double n = static_cast<double>(log_speedups.size());
  const double mean = std::accumulate(log_speedups.begin(), log_speedups.end(), 0.0) / n;
  interval.speedup = std::exp(mean);
  if (log_speedups.size() < 2) {
    interval.low = 0;
    interval.high = std::numeric_limits<double>::infinity();
    return interval;
  }
  double squares = 0;
  for (double value : log_speedups) squares += (value - mean) * (value - mean);
  const double standard_error = std::sqrt(squares / (n - 1) / n);
  const double t = student_t_quantile(1 - (1 - confidence) / 2, static_cast<int>(n) - 1);
  interval.low = std::exp(mean - t * standard_error);
  interval.high = std::exp(mean + t * standard_error);
  return interval;
}

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::faster:
      return "faster";
    case Verdict::same:
      return "same";
    case Verdict::regression:
      return "regression";
    case Verdict::inconclusive:
      return "inconclusive";
    case Verdict::failed:
      return "failed";
  }
  return "failed";
}

std::optional<Verdict> decide(const SpeedupInterval& interval, double tolerance) {
  const double slower_bound = 1 / (1 + tolerance);
  const double faster_bound = 1 + tolerance;
  if (interval.high < slower_bound && interval.speedup < slower_bound) return Verdict::regression;
  if (interval.low > faster_bound && interval.speedup > faster_bound) return Verdict::faster;
  if (interval.low >= slower_bound && interval.high <= faster_bound) return Verdict::same;
  return std::nullopt;
}

int look_index(int rounds) {
  const auto step = [](int n) { return n < 6 ? 1 : n < 12 ? 2 : n < 24 ? 4 : 8; };
  int look = 1;
  for (int n = first_look_rounds; n <= rounds; n += step(n), ++look)
    if (n == rounds) return look;
  return 0;
}

double look_alpha(int look, double alpha) {
  return alpha * 6 / (std::numbers::pi * std::numbers::pi * static_cast<double>(look) * look);
}

std::optional<Verdict> SequentialTest::add_round(double log_speedup) {
  m_logs.push_back(log_speedup);
  if (look_index(static_cast<int>(m_logs.size())) == 0) return std::nullopt;
  return look();
}

std::optional<Verdict> SequentialTest::final_look() {
  if (static_cast<int>(m_logs.size()) == m_last_look_rounds) return decide(m_interval, m_tolerance);
  return look();
}

std::optional<Verdict> SequentialTest::look() {
  ++m_looks;
  m_interval = speedup_interval(m_logs, 1 - look_alpha(m_looks, m_alpha));
  m_last_look_rounds = static_cast<int>(m_logs.size());
  return decide(m_interval, m_tolerance);
}

std::string slowdown_text(const SpeedupInterval& interval) {
  const auto percent = [](double speedup) {
    if (!(speedup > 0) || !std::isfinite(speedup)) return std::string("unbounded");
    return fmt::format("{:.1f}%", 100 * (1 / speedup - 1));
  };
  return fmt::format("{} slower, interval [{}, {}]", percent(interval.speedup), percent(interval.high),
                     percent(interval.low));
}

std::string borderline_reason(const SpeedupInterval& interval, double tolerance) {
  const double slower_bound = 1 / (1 + tolerance);
  if (!(interval.speedup < slower_bound) || !(interval.high >= slower_bound) || !(interval.low < slower_bound)) return {};
  return fmt::format("borderline: {} slower straddles the {:g}% tolerance", slowdown_text(interval), 100 * tolerance);
}

bool beyond_process_bias(const SpeedupInterval& interval, double tolerance, double bias) {
  return interval.high < 1 / ((1 + tolerance) * (1 + bias)) && interval.speedup < interval.high;
}

bool clock_dropped(double block_clock_mhz, double run_median_clock_mhz, double allowed_drop) {
  return run_median_clock_mhz > 0 && block_clock_mhz > 0 && block_clock_mhz < run_median_clock_mhz * (1 - allowed_drop);
}

int batch_size(double one_launch_us, double target_us, int max_batch) {
  if (!(one_launch_us > 0)) return max_batch;
  const double needed = std::ceil(target_us / one_launch_us);
  return static_cast<int>(std::clamp(needed, 1.0, static_cast<double>(max_batch)));
}

int samples_per_block(double sample_us, double block_target_us, int fewest, int most) {
  if (!(sample_us > 0)) return most;
  const double needed = std::ceil(block_target_us / sample_us);
  return static_cast<int>(std::clamp(needed, static_cast<double>(fewest), static_cast<double>(std::max(most, fewest))));
}

SpeedupInterval combine_sizes(std::span<const SpeedupInterval> sizes) {
  SpeedupInterval combined;
  if (sizes.empty()) return combined;
  double speedup = 0, low = 0, high = 0;
  for (const auto& size : sizes) {
    speedup += std::log(size.speedup);
    low += std::log(size.low);
    high += std::log(size.high);
    combined.rounds += size.rounds;
  }
  const double n = static_cast<double>(sizes.size());
  combined.speedup = std::exp(speedup / n);
  combined.low = std::exp(low / n);
  combined.high = std::exp(high / n);
  return combined;
}

Verdict combine_verdicts(std::span<const Verdict> verdicts, const SpeedupInterval& combined, double tolerance) {
  if (std::ranges::find(verdicts, Verdict::failed) != verdicts.end()) return Verdict::failed;
  return decide(combined, tolerance).value_or(Verdict::inconclusive);
}

}  // namespace kforecast::bench
