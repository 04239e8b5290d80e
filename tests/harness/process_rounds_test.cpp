// SPDX-License-Identifier: Apache-2.0
// A B B A rounds of processes on synthetic runs: the order of the runs, the runner's statistics,
// early stopping, and runs that cannot be trusted.
#include "harness/process_rounds.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using namespace kforecast::harness;
using kforecast::Result;
using kforecast::bench::Verdict;
using Catch::Matchers::Contains;

namespace {

// Base takes `base_seconds`, head `head_seconds`, each with a small deterministic jitter and a
// drift over time that A B B A cancels.
RunProgram steady(double base_seconds, double head_seconds, std::vector<Side>* order = nullptr) {
  return [=](Side side, int index) -> Result<ProgramRun> {
    if (order) order->push_back(side);
    const double drift = 1 + 0.002 * index;
    const double jitter = 1 + 0.001 * ((index * 7) % 5 - 2);
    const double t = (side == Side::base ? base_seconds : head_seconds) * drift * jitter;
    return ProgramRun{{{"BM_A", {t, t * 1.001, t * 0.999}}}, 0.5};
  };
}

}  // namespace

TEST_CASE("harness rounds: runs go base, head, head, base and a clear slowdown is a regression at the first look") {
  std::vector<Side> order;
  auto measured = measure_in_rounds(steady(1e-3, 1.3e-3, &order), {0.02, 0.99, 8}, "harness 'h' (gbench): BM_A");
  REQUIRE(measured.has_value());
  CHECK(measured->verdict == Verdict::regression);
  CHECK(measured->interval.speedup == Approx(1 / 1.3).epsilon(0.01));
  // The runner's sequential rule looks first after 3 rounds (bench::first_look_rounds).
  CHECK(measured->interval.rounds == kforecast::bench::first_look_rounds);
  REQUIRE(order.size() == 4 * static_cast<std::size_t>(kforecast::bench::first_look_rounds));
  CHECK(std::vector<Side>(order.begin(), order.begin() + 4) ==
        std::vector<Side>{Side::base, Side::head, Side::head, Side::base});
  CHECK(measured->gpu == "harness 'h' (gbench): BM_A");
  CHECK(measured->gpu_seconds == Approx(0.5 * 4 * kforecast::bench::first_look_rounds));
  REQUIRE(measured->sizes.size() == 1);
  CHECK(measured->sizes.front().size == "BM_A");
  CHECK(measured->sizes.front().samples_per_block == 3);
  CHECK(measured->sizes.front().block_samples_us.size() == order.size());
  CHECK(measured->t_base_us == Approx(1000).epsilon(0.05));
}

TEST_CASE("harness rounds: equal times are same, faster is faster") {
  auto same = measure_in_rounds(steady(1e-3, 1e-3), {0.02, 0.99, 8}, "s");
  REQUIRE(same.has_value());
  CHECK(same->verdict == Verdict::same);
  auto faster = measure_in_rounds(steady(1e-3, 0.7e-3), {0.02, 0.99, 8}, "s");
  REQUIRE(faster.has_value());
  CHECK(faster->verdict == Verdict::faster);
}

TEST_CASE("harness rounds: noise that decides nothing ends inconclusive at the cap, with the reason") {
  int calls = 0;
  const RunProgram noisy = [&](Side side, int index) -> Result<ProgramRun> {
    ++calls;
    const double swing = (index % 3 == 0) ? 1.3 : 0.8;
    return ProgramRun{{{"BM_A", {(side == Side::head ? 1.02e-3 : 1e-3) * swing}}}, 0.1};
  };
  auto measured = measure_in_rounds(noisy, {0.02, 0.99, 5}, "s");
  REQUIRE(measured.has_value());
  CHECK(measured->verdict == Verdict::inconclusive);
  CHECK(calls == 20);
  CHECK_THAT(measured->reason, Contains("5 rounds of processes"));
}

TEST_CASE("harness rounds: runs that cannot be trusted are errors, never a verdict") {
  SECTION("a run that selected no benchmark") {
    auto measured = measure_in_rounds([](Side, int) { return Result<ProgramRun>(ProgramRun{{}, 0.1}); },
                                      {0.02, 0.99, 8}, "s");
    REQUIRE_FALSE(measured.has_value());
    CHECK_THAT(measured.error().message, Contains("run 1 (base build) reported no benchmark: the filter selected none"));
  }
  SECTION("head runs other benchmarks than base") {
    auto measured = measure_in_rounds(
        [](Side side, int) {
          return Result<ProgramRun>(ProgramRun{{{side == Side::base ? "BM_A" : "BM_B", {1e-3}}}, 0.1});
        },
        {0.02, 0.99, 8}, "s");
    REQUIRE_FALSE(measured.has_value());
    CHECK_THAT(measured.error().message, Contains("run 2 (head build) reported the benchmarks BM_B where the first run "
                                                  "reported BM_A"));
  }
  SECTION("a failed run's error is passed on") {
    auto measured = measure_in_rounds(
        [](Side side, int) -> Result<ProgramRun> {
          if (side == Side::head) return kforecast::usage_error("head-2.json: benchmarks[0].real_time is missing");
          return ProgramRun{{{"BM_A", {1e-3}}}, 0.1};
        },
        {0.02, 0.99, 8}, "s");
    REQUIRE_FALSE(measured.has_value());
    CHECK_THAT(measured.error().message, Contains("head-2.json: benchmarks[0].real_time is missing"));
  }
}

TEST_CASE("harness rounds: several benchmarks of one kernel combine as the runner's sizes do") {
  const RunProgram two = [](Side side, int index) -> Result<ProgramRun> {
    const double drift = 1 + 0.001 * index;
    return ProgramRun{{{"BM_A/64", {(side == Side::head ? 1.5e-3 : 1e-3) * drift}},
                       {"BM_A/128", {(side == Side::head ? 1.5e-3 : 1e-3) * drift * 1.0005}}},
                      0.1};
  };
  auto measured = measure_in_rounds(two, {0.02, 0.99, 8}, "s");
  REQUIRE(measured.has_value());
  CHECK(measured->sizes.size() == 2);
  CHECK(measured->verdict == Verdict::regression);
  CHECK(measured->interval.speedup == Approx(1 / 1.5).epsilon(0.01));
}
