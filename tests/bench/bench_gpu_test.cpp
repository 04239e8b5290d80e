// SPDX-License-Identifier: Apache-2.0
// `kforecast bench` on a real GPU, through the binary (a fault must not take the test down).
// Skipped (exit 77) without a GPU. On a GPU machine with a binary built elsewhere, set
// KF_TEST_BINARY and KF_TEST_SOURCE_DIR to where the binary and the fixtures are.
#include <cstdlib>

#include <catch2/catch.hpp>

#include "base/subprocess.hpp"
#include "cuda/cuda_driver.hpp"
#include "support/cuda_requirements.hpp"
#include "support/gpu_test_paths.hpp"
#include "support/requirement.hpp"

namespace {

const std::string binary = kforecast::testing::test_binary();
const std::string fixtures = kforecast::testing::test_source_dir() + "/fixtures/bench/";

kforecast::ProcessOutput bench(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), {binary, "bench"});
  arguments.insert(arguments.end(), {"--format", "json"});
  auto output = kforecast::run_process(arguments, {.timeout = std::chrono::seconds(120)});
  if (!output) FAIL(output.error().message);
  INFO(output->out << output->err);
  return *output;
}

bool has(const kforecast::ProcessOutput& output, std::string_view text) {
  return output.out.find(text) != std::string::npos;
}

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() { return missing_gpu(); }

TEST_CASE("bench gpu: a kernel against itself is the same") {
  auto result = bench({fixtures + "copy.cu:copy", "--vs", fixtures + "copy.cu:copy"});
  CHECK(result.exit_status == 0);
  CHECK(has(result, "\"verdict\": \"same\""));
}

TEST_CASE("bench gpu: a kernel of a few microseconds is timed as a graph of launches, and against itself is the same") {
  // About 5 us on an H100: a sample holds several launches, captured into one CUDA graph.
  auto result = bench({fixtures + "chain.cu:chain<0>", "--vs", fixtures + "chain.cu:chain<0>", "--config",
                       fixtures + "chain-5us.toml"});
  CHECK(result.exit_status == 0);
  CHECK(has(result, "\"verdict\": \"same\""));
  CHECK_FALSE(has(result, "\"batch\": 1,"));
  // and a planted 10% slowdown of it is still caught through the graph
  auto slower = bench({fixtures + "chain.cu:chain<100>", "--vs", fixtures + "chain.cu:chain<0>", "--config",
                       fixtures + "chain-5us.toml"});
  CHECK(has(slower, "\"verdict\": \"regression\""));
}

TEST_CASE("bench gpu: a coalesced copy is faster than a strided one, and the reverse a regression") {
  auto faster = bench({fixtures + "copy.cu:copy", "--vs", fixtures + "copy.cu:copy_strided"});
  CHECK(faster.exit_status == 0);
  CHECK(has(faster, "\"verdict\": \"faster\""));
  auto slower = bench({fixtures + "copy.cu:copy_strided", "--vs", fixtures + "copy.cu:copy"});
  CHECK(slower.exit_status == 1);
  CHECK(has(slower, "\"verdict\": \"regression\""));
  // 7x slower: far past anything a process's own bias could make, so not measured again.
  CHECK(has(slower, "\"regression_checks\": 1"));
  CHECK(has(slower, "not re-measured in a fresh process"));
}

TEST_CASE("bench gpu: blocks follow the kernel's time, and a 3% slowdown is confirmed in a second process") {
  const std::string decision = kforecast::testing::test_source_dir() + "/fixtures/gpu/decision/";
  auto short_kernel = bench({decision + "work-100us.cu:work", "--vs", decision + "work-100us.cu:work"});
  CHECK(has(short_kernel, "\"verdict\": \"same\""));
  CHECK(has(short_kernel, "\"samples_per_block\": 10"));
  auto long_kernel = bench({decision + "work-1ms.cu:work", "--vs", decision + "work-1ms.cu:work"});
  CHECK(has(long_kernel, "\"verdict\": \"same\""));
  CHECK(has(long_kernel, "\"samples_per_block\": 3"));
  auto slower = bench({decision + "work-100us.cu:work_slower", "--vs", decision + "work-100us.cu:work"});
  CHECK(slower.exit_status == 1);
  CHECK(has(slower, "\"verdict\": \"regression\""));
  CHECK(has(slower, "\"regression_checks\": 2"));
}

TEST_CASE("bench gpu: each kernel of a pair launches with its own grid") {
  // With one grid for both, `copy` at copy_four_per_thread's grid writes a quarter of y and the
  // pair fails as disagreeing, in either order.
  for (auto [candidate, reference] :
       {std::pair{"copy_four_per_thread", "copy"}, std::pair{"copy", "copy_four_per_thread"}}) {
    auto result = bench({fixtures + "copy.cu:" + candidate, "--vs", fixtures + "copy.cu:" + reference});
    CHECK_FALSE(has(result, "\"verdict\": \"failed\""));
    CHECK(has(result, "\"verdict\": "));
  }
}

TEST_CASE("bench gpu: a faulting or wrong candidate fails, and the next pair still measures") {
  auto fault = bench({fixtures + "copy.cu:copy_out_of_bounds", "--vs", fixtures + "copy.cu:copy"});
  CHECK(fault.exit_status == 1);
  CHECK(has(fault, "\"verdict\": \"failed\""));
  CHECK(has(fault, "CUDA_ERROR_"));
  auto wrong = bench({fixtures + "copy.cu:copy_wrong", "--vs", fixtures + "copy.cu:copy"});
  CHECK(wrong.exit_status == 1);
  CHECK(has(wrong, "disagrees with the reference"));
  auto after = bench({fixtures + "copy.cu:copy", "--vs", fixtures + "copy.cu:copy"});
  CHECK(after.exit_status == 0);
  CHECK(has(after, "\"verdict\": \"same\""));
}

TEST_CASE("bench gpu: a hanging candidate fails at the time limit") {
  auto hang = bench({fixtures + "copy.cu:copy_hangs", "--vs", fixtures + "copy.cu:copy", "--config",
                     fixtures + "short-timeout.toml"});
  CHECK(hang.exit_status == 1);
  CHECK(has(hang, "did not finish within bench.timeout_seconds (15 s)"));
}

TEST_CASE("bench gpu: a candidate that writes past or before its output fails, naming the buffer") {
  // Both agree with copy's output: without guard zones each passed as `same`.
  auto past = bench({fixtures + "guard.cu:copy_one_past", "--vs", fixtures + "guard.cu:copy"});
  CHECK(past.exit_status == 1);
  CHECK(has(past, "\"verdict\": \"failed\""));
  CHECK(has(past, "wrote 4 bytes past 'y'"));
  CHECK(has(past, "\"blame\": \"candidate\""));
  CHECK(has(past, "\"speedup\": null"));
  auto before = bench({fixtures + "guard.cu:copy_one_before", "--vs", fixtures + "guard.cu:copy"});
  CHECK(before.exit_status == 1);
  CHECK(has(before, "wrote 4 bytes before 'y'"));
}

TEST_CASE("bench gpu: a reference that writes past its output is broken, not the candidate's failure") {
  auto broken = bench({fixtures + "guard.cu:copy", "--vs", fixtures + "guard.cu:copy_one_past"});
  CHECK(broken.exit_status == 3);
  CHECK(has(broken, "the reference (base) is broken: "));
  CHECK(has(broken, "wrote 4 bytes past 'y'"));
  CHECK(has(broken, "\"blame\": \"reference\""));
}

TEST_CASE("bench gpu: a failed measurement's text shows the failure, not a speedup") {
  auto output = kforecast::run_process(
      {binary, "bench", fixtures + "guard.cu:copy_one_past", "--vs", fixtures + "guard.cu:copy"},
      {.timeout = std::chrono::seconds(120)});
  if (!output) FAIL(output.error().message);
  INFO(output->out << output->err);
  CHECK(output->exit_status == 1);
  CHECK(output->out.find("failed, not timed") != std::string::npos);
  CHECK(output->out.find("speedup    not measured") != std::string::npos);
  CHECK(output->out.find("1.0000x") == std::string::npos);
}
