// SPDX-License-Identifier: Apache-2.0
// measure_confirmed: a regression believed only once a fresh process agrees, and one whose
// confirmation straddled the tolerance measured a third time with more rounds before it is called
// borderline; a batch's regressions confirmed together. The processes are a test's stand-in (what
// each one measured, in order).
#include "measure/bench_child.hpp"

#include <deque>

#include <catch2/catch.hpp>

#include "support/gate_fakes.hpp"

using namespace kforecast;
using bench::Verdict;
using kforecast::test::measured;
using Catch::Matchers::Contains;

namespace {

// Answers each process with the next of `answers`, and records what was asked.
struct Processes {
  std::deque<bench::Measurement> answers;
  std::vector<measure::ChildRequest> asked;
  measure::MeasureOneProcess measure() {
    return [this](const measure::ChildRequest& request) -> Result<bench::Measurement> {
      asked.push_back(request);
      REQUIRE_FALSE(answers.empty());
      auto next = answers.front();
      answers.pop_front();
      return next;
    };
  }
};

bench::Measurement slower(double speedup, Verdict verdict, double low, double high) {
  auto m = measured(verdict, speedup, 0.1);
  m.interval = {speedup, low, high, 16};
  m.tolerance = 0.02;
  m.wall_seconds = 1.5;  // as measure_in_child sets it
  return m;
}

}  // namespace

TEST_CASE("bench child: a regression the second process confirms is a regression, from two processes") {
  Processes p{{slower(0.97, Verdict::regression, 0.965, 0.975), slower(0.968, Verdict::regression, 0.96, 0.976)}};
  auto m = measure::measure_confirmed({}, {}, p.measure());
  REQUIRE(m.has_value());
  CHECK(m->verdict == Verdict::regression);
  CHECK(m->regression_checks == 2);
  CHECK(p.asked.size() == 2);
  CHECK(p.asked[1].confirming);
  CHECK_FALSE(p.asked[1].extended);
  CHECK(m->gpu_seconds == Approx(0.2));
  CHECK(m->wall_seconds == Approx(3.0));  // a runner pays for both processes' wall
}

TEST_CASE("bench child: a confirmation that straddles the tolerance gets a third process with more rounds") {
  SECTION("which confirms the regression") {
    Processes p{{slower(0.97, Verdict::regression, 0.965, 0.975), slower(0.979, Verdict::inconclusive, 0.97, 0.988),
                 slower(0.971, Verdict::regression, 0.968, 0.974)}};
    auto m = measure::measure_confirmed({}, {}, p.measure());
    REQUIRE(m.has_value());
    CHECK(m->verdict == Verdict::regression);
    CHECK(m->regression_checks == 3);
    REQUIRE(p.asked.size() == 3);
    CHECK(p.asked[2].extended);
    CHECK(p.asked[2].confirming);
    CHECK(m->gpu_seconds == Approx(0.3));
    CHECK(m->wall_seconds == Approx(4.5));
    CHECK_THAT(m->notes.back(), Contains("confirmed by a third process with four times the rounds"));
  }
  SECTION("or does not: borderline, with every process's figure") {
    Processes p{{slower(0.97, Verdict::regression, 0.965, 0.975), slower(0.979, Verdict::inconclusive, 0.97, 0.988),
                 slower(0.99, Verdict::same, 0.985, 0.995)}};
    auto m = measure::measure_confirmed({}, {}, p.measure());
    REQUIRE(m.has_value());
    CHECK(m->verdict == Verdict::inconclusive);
    CHECK(m->reason.starts_with("borderline: the first process measured"));
    CHECK_THAT(m->reason, Contains("a fresh process straddled the tolerance, and a third with more rounds"));
    CHECK_THAT(m->reason, Contains("(same)"));
    CHECK(m->regression_checks == 3);
  }
}

TEST_CASE("bench child: a second process that decides 'same' is borderline without a third") {
  Processes p{{slower(0.97, Verdict::regression, 0.965, 0.975), slower(0.995, Verdict::same, 0.99, 1.0)}};
  auto m = measure::measure_confirmed({}, {}, p.measure());
  REQUIRE(m.has_value());
  CHECK(m->verdict == Verdict::inconclusive);
  CHECK(m->reason.starts_with("borderline:"));
  CHECK(p.asked.size() == 2);
}

TEST_CASE("bench child: a regression far beyond the tolerance needs no second process") {
  Processes p{{slower(0.5, Verdict::regression, 0.49, 0.51)}};
  auto m = measure::measure_confirmed({}, {}, p.measure());
  REQUIRE(m.has_value());
  CHECK(m->verdict == Verdict::regression);
  CHECK(p.asked.size() == 1);
}

namespace {

// Answers each batch with the next of `answers`, and records what was asked.
struct Batches {
  std::deque<std::vector<bench::Measurement>> answers;
  std::vector<measure::BatchRequest> asked;
  measure::MeasureBatch measure() {
    return [this](const measure::BatchRequest& request) {
      asked.push_back(request);
      REQUIRE_FALSE(answers.empty());
      REQUIRE(answers.front().size() == request.pairs.size());
      measure::BatchOutcomes outcomes;
      for (auto& answer : answers.front()) outcomes.emplace_back(answer);
      answers.pop_front();
      return outcomes;
    };
  }
};

bool settled(const std::optional<Result<bench::Measurement>>& outcome, Verdict verdict) {
  return outcome && *outcome && (*outcome)->verdict == verdict;
}

}  // namespace

TEST_CASE("bench child: a batch's regressions are confirmed together in one fresh process, straddlers in a third") {
  Batches b{{{slower(1.0, Verdict::same, 0.99, 1.01), slower(0.97, Verdict::regression, 0.965, 0.975),
              slower(0.5, Verdict::regression, 0.49, 0.51), slower(0.97, Verdict::regression, 0.965, 0.975)},
             {slower(0.968, Verdict::regression, 0.96, 0.976), slower(0.979, Verdict::inconclusive, 0.97, 0.988)},
             {slower(0.99, Verdict::same, 0.985, 0.995)}}};
  measure::BatchRequest request;
  for (const char* name : {"a", "b", "c", "d"}) request.pairs.push_back({name, "base", "", "", ""});
  request.budget_seconds = 5;
  auto outcomes = measure::measure_batch_confirmed(request, {}, b.measure());
  REQUIRE(b.asked.size() == 3);
  // Only the regressions near the tolerance are measured again; a confirmation is never held back
  // by the budget; every process of the batch shares one builds folder.
  REQUIRE(b.asked[1].pairs.size() == 2);
  CHECK(b.asked[1].pairs[0].candidate == "b");
  CHECK(b.asked[1].pairs[1].candidate == "d");
  CHECK(b.asked[1].confirming);
  CHECK_FALSE(b.asked[1].extended);
  CHECK(b.asked[1].budget_seconds == 0);
  REQUIRE(b.asked[2].pairs.size() == 1);
  CHECK(b.asked[2].pairs[0].candidate == "d");
  CHECK(b.asked[2].extended);
  CHECK_FALSE(b.asked[0].builds_folder.empty());
  CHECK(b.asked[1].builds_folder == b.asked[0].builds_folder);
  CHECK(b.asked[2].builds_folder == b.asked[0].builds_folder);

  CHECK(settled(outcomes[0], Verdict::same));
  REQUIRE(settled(outcomes[1], Verdict::regression));
  CHECK((*outcomes[1])->regression_checks == 2);
  CHECK((*outcomes[1])->gpu_seconds == Approx(0.2));
  CHECK((*outcomes[1])->wall_seconds == Approx(3.0));
  REQUIRE(settled(outcomes[2], Verdict::regression));
  CHECK((*outcomes[2])->regression_checks == 1);
  CHECK_THAT((*outcomes[2])->notes.back(), Contains("not re-measured in a fresh process"));
  REQUIRE(settled(outcomes[3], Verdict::inconclusive));
  CHECK((*outcomes[3])->regression_checks == 3);
  CHECK((*outcomes[3])->reason.starts_with("borderline:"));
}
