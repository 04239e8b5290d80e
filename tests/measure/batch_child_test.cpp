// SPDX-License-Identifier: Apache-2.0
// Many pairs in few measuring processes: measure_batch_in_children against a real child process
// (a script standing in for `kforecast bench --in-process --batch`, acting on each pair's name:
// measured, failed, crashed, unpreparable).
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "base/scratch_folder.hpp"
#include "base/text_file.hpp"
#include "measure/bench_child.hpp"
#include "support/gate_fakes.hpp"

using namespace kforecast;
using bench::Verdict;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

// A measuring child that reads the batch file and, per pair, by the candidate's name: `ok`
// appends a measurement; `fail` a failed one, and stops (exit 1) where pairs follow; `crash`
// kills itself; `spec` appends an error line; `nogpu` exits 3 before anything. With --budget,
// the pairs after the first measured are skipped. Each run appends its pair count to calls.
struct FakeChild {
  ScratchFolder folder{"kforecast-batch-test"};
  fs::path dir = folder.path();
  FakeChild() {
    std::string line = bench::measurement_json(test::measured(Verdict::same, 1.0, 0.05));
    std::erase(line, '\n');
    std::ofstream(dir / "ok.json") << line;
    auto failed = bench::failed_measurement("the candidate's output disagrees with the reference's");
    line = bench::measurement_json(failed);
    std::erase(line, '\n');
    std::ofstream(dir / "failed.json") << line;
    std::ofstream(dir / "child.sh") << R"SH(#!/bin/bash
dir=$(dirname "$0")
while (($#)); do
  case $1 in --batch) batch=$2; shift 2 ;; --results) results=$2; shift 2 ;; --budget) budget=$2; shift 2 ;; *) shift ;; esac
done
mapfile -t names < <(grep -o '"candidate": "[^"]*"' "$batch" | sed 's/"candidate": "\(.*\)"/\1/')
echo "${#names[@]}" >> "$dir/calls"
for i in "${!names[@]}"; do
  name=${names[$i]}
  if [[ -n ${budget-} && $i -gt 0 ]]; then echo "{\"index\": $i, \"skipped\": \"the GPU budget was spent\"}" >> "$results"; continue; fi
  case $name in
    ok*) echo "{\"index\": $i, \"seconds\": 0.25, \"measurement\": $(cat "$dir/ok.json")}" >> "$results" ;;
    slow*) echo "{\"index\": $i, \"seconds\": 0.25, \"measurement\": $(cat "$dir/ok.json")}" >> "$results"; sleep 0.8 ;;
    fail*) echo "{\"index\": $i, \"seconds\": 0.25, \"measurement\": $(cat "$dir/failed.json")}" >> "$results"
           (( i + 1 < ${#names[@]} )) && exit 1 ;;
    crash*) echo "a fault in the driver" >&2; kill -SEGV $$ ;;
    spec*) echo "{\"index\": $i, \"seconds\": 0.01, \"error\": \"no launch spec\", \"exit_status\": 2}" >> "$results" ;;
    garbage*) echo "{\"index\": $i, \"seconds\": " >> "$results"; echo "}" >> "$results"; exit 0 ;;
    nogpu*) echo "kforecast: error: no GPU here" >&2; exit 3 ;;
  esac
done
exit 0
)SH";
    fs::permissions(dir / "child.sh", fs::perms::owner_all);
  }
  std::vector<std::size_t> heard;  // what on_progress heard
  measure::BatchOutcomes run(std::vector<std::string> names, double budget = 0) {
    measure::BatchRequest request;
    for (auto& name : names) request.pairs.push_back({name, "base", "", "", ""});
    request.program = (dir / "child.sh").string();
    request.timeout_seconds = 30;
    request.budget_seconds = budget;
    request.on_progress = [this](std::size_t finished) { heard.push_back(finished); };
    return measure::measure_batch_in_children(request);
  }
  std::string calls() const {
    auto text = read_text_file(dir / "calls", "calls");
    return text ? *text : "";
  }
};

bool is(const std::optional<Result<bench::Measurement>>& outcome, Verdict verdict) {
  return outcome && *outcome && (*outcome)->verdict == verdict;
}

}  // namespace

TEST_CASE("batch child: every pair measured in one process, its wall shared out") {
  FakeChild child;
  auto outcomes = child.run({"ok-a", "ok-b", "ok-c"});
  REQUIRE(outcomes.size() == 3);
  for (const auto& outcome : outcomes) CHECK(is(outcome, Verdict::same));
  CHECK(child.calls() == "3\n");
  // The process's start-up and ending are the first pair's; the others are what the child said.
  CHECK((*outcomes[0])->wall_seconds >= 0.25);
  CHECK((*outcomes[1])->wall_seconds == Approx(0.25));
}

TEST_CASE("batch child: after a failed pair the rest go to a fresh process") {
  FakeChild child;
  auto outcomes = child.run({"ok-a", "fail-b", "ok-c"});
  CHECK(is(outcomes[0], Verdict::same));
  CHECK(is(outcomes[1], Verdict::failed));
  CHECK(is(outcomes[2], Verdict::same));
  CHECK(child.calls() == "3\n1\n");
}

TEST_CASE("batch child: a crash is the pair it was measuring's failure, with the child's last words") {
  FakeChild child;
  auto outcomes = child.run({"ok-a", "crash-b", "ok-c"});
  CHECK(is(outcomes[0], Verdict::same));
  REQUIRE(is(outcomes[1], Verdict::failed));
  CHECK_THAT((*outcomes[1])->reason, Contains("was killed by SIGSEGV") && Contains("a fault in the driver"));
  CHECK(is(outcomes[2], Verdict::same));
  CHECK(child.calls() == "3\n1\n");
}

TEST_CASE("batch child: a pair that cannot be measured is its own error, and the batch goes on") {
  FakeChild child;
  auto outcomes = child.run({"spec-a", "ok-b"});
  REQUIRE(outcomes[0].has_value());
  REQUIRE_FALSE(outcomes[0]->has_value());
  CHECK(outcomes[0]->error().message == "no launch spec");
  CHECK(outcomes[0]->error().exit_code == ExitCode::usage);
  CHECK(is(outcomes[1], Verdict::same));
  CHECK(child.calls() == "2\n");
}

TEST_CASE("batch child: no GPU in the child is every pair's error, from one process") {
  FakeChild child;
  auto outcomes = child.run({"nogpu-a", "ok-b"});
  for (const auto& outcome : outcomes) {
    REQUIRE(outcome.has_value());
    REQUIRE_FALSE(outcome->has_value());
    CHECK(outcome->error().exit_code == ExitCode::could_not_run);
    CHECK(outcome->error().message == "no GPU here");
  }
  CHECK(child.calls() == "2\n");
}

TEST_CASE("batch child: pairs skipped for the budget are not measured, and not retried") {
  FakeChild child;
  auto outcomes = child.run({"ok-a", "ok-b", "ok-c"}, 0.01);
  CHECK(is(outcomes[0], Verdict::same));
  CHECK_FALSE(outcomes[1].has_value());
  CHECK_FALSE(outcomes[2].has_value());
  CHECK(child.calls() == "3\n");
}

TEST_CASE("batch child: results that cannot be read fail the pair reached, and the rest go on") {
  FakeChild child;
  auto outcomes = child.run({"garbage-a", "ok-b"});
  REQUIRE(is(outcomes[0], Verdict::failed));
  CHECK_THAT((*outcomes[0])->reason, Contains("its results could not be read"));
  CHECK(is(outcomes[1], Verdict::same));
}

TEST_CASE("batch child: the parent hears the pairs finish while the child runs") {
  FakeChild child;
  auto outcomes = child.run({"slow-a", "slow-b"});
  CHECK(is(outcomes[0], Verdict::same));
  CHECK(is(outcomes[1], Verdict::same));
  REQUIRE_FALSE(child.heard.empty());
  CHECK(child.heard.front() == 1);  // the first pair, heard while the second was still running
  CHECK(std::ranges::is_sorted(child.heard));
  CHECK(child.heard.back() <= 2);
}
