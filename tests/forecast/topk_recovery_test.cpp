// SPDX-License-Identifier: Apache-2.0
#include "forecast/topk_recovery.hpp"

#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::forecast;

TEST_CASE("forecast: top-k recovery") {
  // Ranked by predicted score, ties in input order: #2 (1.5; 1.1), #4 (1.5; 1.4), #1 (1.2; 1.3),
  // #5 (1.1; 1.0), #3 (0.9; 2.0). The best measured speedup, 2.0, is ranked last.
  const std::vector<RankedCandidate> candidates{{1.2, 1.3}, {1.5, 1.1}, {0.9, 2.0}, {1.5, 1.4}, {1.1, 1.0}};
  SECTION("top 20% is one candidate; the tie goes to the earlier one") {
    CHECK(topk_recovery(candidates, 0.2).value() == Approx(0.55));  // 1.1 / 2.0, not 1.4 / 2.0
  }
  SECTION("a tiny fraction still takes one") { CHECK(topk_recovery(candidates, 0.01).value() == Approx(0.55)); }
  SECTION("top 40% is two") { CHECK(topk_recovery(candidates, 0.4).value() == Approx(0.7)); }  // 1.4 / 2.0
  SECTION("top 50% rounds up to three") { CHECK(topk_recovery(candidates, 0.5).value() == Approx(0.7)); }
  SECTION("top 80% is four; the best is still missed") {
    CHECK(topk_recovery(candidates, 0.8).value() == Approx(0.7));  // max(1.1, 1.4, 1.3, 1.0) / 2.0
  }
  SECTION("all of them recovers everything") { CHECK(topk_recovery(candidates, 1.0).value() == 1.0); }
}

TEST_CASE("forecast: top-k recovery counts k without rounding noise") {
  // 0.28 * 25 is 7.000000000000001 in floating point; it must take 7, not 8.
  std::vector<RankedCandidate> candidates;
  for (int i = 0; i < 25; ++i) candidates.push_back({25.0 - i, 1.0});
  candidates[7].measured_speedup = 2.0;                           // eighth in rank
  CHECK(topk_recovery(candidates, 0.28).value() == Approx(0.5));  // best of top 7 is 1.0, of all 2.0
  CHECK(topk_recovery(candidates, 0.32).value() == 1.0);          // 0.32 * 25 = 8
}

TEST_CASE("forecast: top-k recovery keeps input order among many equal scores") {
  // Forty equal scores: the first candidate ranks first, whatever a sort might reorder.
  std::vector<RankedCandidate> candidates;
  for (int i = 0; i < 40; ++i) candidates.push_back({1.0, 1.0 + i});
  CHECK(topk_recovery(candidates, 0.025).value() == Approx(0.025));  // top 1: 1 / 40
  CHECK(topk_recovery(candidates, 0.05).value() == Approx(0.05));    // top 2: 2 / 40
}

TEST_CASE("forecast: a perfect ranking recovers everything at any k") {
  const std::vector<RankedCandidate> candidates{{0.8, 0.9}, {2.0, 3.0}, {1.1, 1.2}};
  CHECK(topk_recovery(candidates, 0.1).value() == 1.0);
}

TEST_CASE("forecast: top-k recovery errors") {
  const std::vector<RankedCandidate> none;
  CHECK_FALSE(topk_recovery(none, 0.5).has_value());
  const std::vector<RankedCandidate> one{{1.0, 1.0}};
  CHECK(topk_recovery(one, 0.0).error().exit_code == ExitCode::usage);
  CHECK_FALSE(topk_recovery(one, 1.5).has_value());
  CHECK_FALSE(topk_recovery(one, std::nan("")).has_value());
  const std::vector<RankedCandidate> bad_speedup{{1.0, 1.0}, {1.0, 0.0}};
  CHECK_THAT(topk_recovery(bad_speedup, 0.5).error().message, Catch::StartsWith("candidate 2 has"));
  const std::vector<RankedCandidate> bad_score{{std::nan(""), 1.0}};
  CHECK_FALSE(topk_recovery(bad_score, 0.5).has_value());
}
