// SPDX-License-Identifier: Apache-2.0
#include "bench/statistics.hpp"

#include <cmath>
#include <random>

#include <catch2/catch.hpp>

using namespace kforecast::bench;

TEST_CASE("bench: median of block samples") {
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({4, 1, 3, 2}) == 2.5);
  CHECK(median({5}) == 5);
  CHECK(std::isnan(median({})));
}

TEST_CASE("bench: Student t quantiles match the tables") {
  CHECK(student_t_quantile(0.995, 3) == Approx(5.841).epsilon(1e-3));
  CHECK(student_t_quantile(0.995, 7) == Approx(3.499).epsilon(1e-3));
  CHECK(student_t_quantile(0.975, 10) == Approx(2.228).epsilon(1e-3));
  CHECK(student_t_quantile(0.995, 31) == Approx(2.744).epsilon(1e-3));
  CHECK(student_t_quantile(0.975, 100000) == Approx(1.960).epsilon(1e-3));
  CHECK(student_t_quantile(0.005, 7) == Approx(-3.499).epsilon(1e-3));
  CHECK(student_t_quantile(0.5, 4) == 0);
}

TEST_CASE("bench: the interval covers a known speedup") {
  // Rounds whose candidate is 5% faster (speedup 1.05), with 0.3% noise per block.
  std::mt19937_64 generator(7);
  std::normal_distribution<double> noise(0, 0.003);
  std::vector<double> logs;
  for (int i = 0; i < 16; ++i) {
    const Round round{100 * (1 + noise(generator)), 100 / 1.05 * (1 + noise(generator)),
                      100 / 1.05 * (1 + noise(generator)), 100 * (1 + noise(generator))};
    logs.push_back(round_log_speedup(round));
  }
  const auto interval = speedup_interval(logs, 0.99);
  CHECK(interval.rounds == 16);
  CHECK(interval.low < 1.05);
  CHECK(interval.high > 1.05);
  CHECK(interval.high - interval.low < 0.01);
  CHECK(decide(interval, 0.02) == Verdict::faster);
}

TEST_CASE("bench: verdicts against the tolerance") {
  CHECK(decide({1.0, 0.995, 1.005, 8}, 0.02) == Verdict::same);
  CHECK(decide({0.95, 0.94, 0.96, 8}, 0.02) == Verdict::regression);
  CHECK(decide({1.10, 1.08, 1.12, 8}, 0.02) == Verdict::faster);
  // Straddling the tolerance: measure more.
  CHECK_FALSE(decide({0.98, 0.97, 0.99, 8}, 0.02).has_value());
  CHECK_FALSE(decide({1.0, 0.9, 1.1, 4}, 0.02).has_value());
  // A 1% change inside a 2% tolerance is "same", not "faster".
  CHECK(decide({1.01, 1.005, 1.015, 8}, 0.02) == Verdict::same);
  CHECK(verdict_name(Verdict::inconclusive) == "inconclusive");
}

TEST_CASE("bench: sequential looks, clock drops, batch sizes") {
  CHECK_FALSE(is_look(3));
  CHECK(is_look(4));
  CHECK_FALSE(is_look(6));
  CHECK(is_look(8));
  CHECK(is_look(32));
  CHECK(clock_dropped(1900, 1980));
  CHECK_FALSE(clock_dropped(1950, 1980));
  CHECK_FALSE(clock_dropped(0, 1980));  // no reading
  CHECK(batch_size(4.0) == 5);
  CHECK(batch_size(50.0) == 1);
  CHECK(batch_size(0.001) == 1000);
  CHECK(batch_size(0) == 1000);
}

TEST_CASE("bench: A B B A cancels a linear drift that A B A B turns into a false difference") {
  // Two identical kernels on a GPU whose times drift up 1% per block (warming, clocks): the
  // artefact BENCHMARKING.md measured as a false 3-5% difference under A B A B.
  const auto drift = [](int block) { return 100.0 * (1 + 0.01 * block); };
  std::vector<double> abba, abab;
  int block = 0;
  for (int round = 0; round < 8; ++round) {
    const Round ordered{drift(block), drift(block + 1), drift(block + 2), drift(block + 3)};
    abba.push_back(round_log_speedup(ordered));
    // The same four blocks run A B A B: A at 0 and 2, B at 1 and 3.
    abab.push_back(std::log((drift(block) + drift(block + 2)) / (drift(block + 1) + drift(block + 3))));
    block += 4;
  }
  const auto fair = speedup_interval(abba, 0.99);
  const auto biased = speedup_interval(abab, 0.99);
  CHECK(fair.speedup == Approx(1.0).epsilon(1e-9));
  CHECK(biased.speedup < 0.995);  // A B A B: the candidate looks ~0.6% slower than itself
}

TEST_CASE("bench: sizes combine by geometric mean") {
  const std::vector<SpeedupInterval> sizes{{2.0, 1.9, 2.1, 8}, {0.5, 0.45, 0.55, 8}};
  const auto combined = combine_sizes(sizes);
  CHECK(combined.speedup == Approx(1.0));
  CHECK(combined.low == Approx(std::sqrt(1.9 * 0.45)));
  CHECK(combined.rounds == 16);
  const std::vector<Verdict> verdicts{Verdict::faster, Verdict::failed};
  CHECK(combine_verdicts(verdicts, combined, 0.02) == Verdict::failed);
  const std::vector<Verdict> fine{Verdict::same, Verdict::same};
  CHECK(combine_verdicts(fine, {1.0, 0.999, 1.001, 8}, 0.02) == Verdict::same);
  CHECK(combine_verdicts(fine, {1.0, 0.9, 1.1, 8}, 0.02) == Verdict::inconclusive);
}

TEST_CASE("bench: identical kernels under noise are almost never called a regression") {
  // 1000 synthetic A/A runs with 1% block noise and the sequential rule at 99%: the false
  // regression rate must stay below 1%.
  std::mt19937_64 generator(11);
  std::normal_distribution<double> noise(0, 0.01);
  int regressions = 0;
  for (int run = 0; run < 1000; ++run) {
    std::vector<double> logs;
    std::optional<Verdict> verdict;
    for (int rounds = 1; rounds <= 32 && !verdict; ++rounds) {
      logs.push_back(round_log_speedup({100 * (1 + noise(generator)), 100 * (1 + noise(generator)),
                                        100 * (1 + noise(generator)), 100 * (1 + noise(generator))}));
      if (is_look(rounds)) verdict = decide(speedup_interval(logs, 0.99), 0.02);
    }
    regressions += verdict == Verdict::regression;
  }
  CHECK(regressions < 10);
}
