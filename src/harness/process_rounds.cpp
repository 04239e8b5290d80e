// SPDX-License-Identifier: Apache-2.0
#include "harness/process_rounds.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "bench/statistics.hpp"

namespace kforecast::harness {
namespace {

// Per benchmark, the block medians (seconds) of each run, in the order the runs went.
struct BenchmarkBlocks {
  std::string name;
  std::vector<double> base_blocks, head_blocks;
  std::vector<std::vector<double>> block_samples_us;  // every run's reported times, A B B A order
  int repetitions = 0;
  // The runner's sequential rule over this benchmark's rounds, so a harness decides exactly as the
  // standalone runner does, with an interval valid however often it is looked at.
  bench::SequentialTest test;
  std::optional<bench::Verdict> verdict;
};

std::string names_of(const std::vector<BenchmarkTimes>& benchmarks) {
  std::string names;
  for (const auto& benchmark : benchmarks) names += (names.empty() ? "" : ", ") + benchmark.name;
  return names;
}

// The first run fixes the benchmarks; every later run must report exactly them.
Result<void> record_run(const ProgramRun& run, Side side, int index, double confidence, double tolerance,
                        std::vector<BenchmarkBlocks>& blocks) {
  const auto where = fmt::format("run {} ({} build)", index + 1, side_name(side));
  if (run.benchmarks.empty())
    return usage_error(fmt::format("{} reported no benchmark: the filter selected none (check [[harness.map]] "
                                   "benchmarks against the program's benchmark names)",
                                   where));
  if (blocks.empty())
    for (const auto& benchmark : run.benchmarks)
      blocks.push_back({benchmark.name, {}, {}, {}, 0, bench::SequentialTest(confidence, tolerance), std::nullopt});
  if (run.benchmarks.size() != blocks.size() ||
      !std::ranges::all_of(run.benchmarks, [&](const BenchmarkTimes& benchmark) {
        return std::ranges::find(blocks, benchmark.name, &BenchmarkBlocks::name) != blocks.end();
      })) {
    std::vector<BenchmarkTimes> first;
    for (const auto& block : blocks) first.push_back({block.name, {}});
    return usage_error(fmt::format("{} reported the benchmarks {} where the first run reported {}: base and head "
                                   "must run the same benchmarks",
                                   where, names_of(run.benchmarks), names_of(first)));
  }
  for (const auto& benchmark : run.benchmarks) {
    auto& block = *std::ranges::find(blocks, benchmark.name, &BenchmarkBlocks::name);
    if (benchmark.seconds.empty()) return usage_error(fmt::format("{}: '{}' reported no time", where, benchmark.name));
    const double median = bench::median(benchmark.seconds);
    (side == Side::base ? block.base_blocks : block.head_blocks).push_back(median);
    std::vector<double> samples_us;
    for (double seconds : benchmark.seconds) samples_us.push_back(seconds * 1e6);
    block.block_samples_us.push_back(std::move(samples_us));
    block.repetitions = static_cast<int>(benchmark.seconds.size());
  }
  return {};
}

bench::SizeMeasurement size_of(const BenchmarkBlocks& block) {
  bench::SizeMeasurement size;
  size.size = block.name;
  size.interval = block.test.interval();
  size.verdict = block.verdict.value_or(bench::Verdict::inconclusive);
  size.t_reference_us = bench::median(block.base_blocks) * 1e6;
  size.t_candidate_us = bench::median(block.head_blocks) * 1e6;
  size.batch = 1;
  size.samples_per_block = block.repetitions;
  size.round_log_speedups = block.test.log_speedups();
  size.block_samples_us = block.block_samples_us;
  return size;
}

bool all_decided(const std::vector<BenchmarkBlocks>& blocks) {
  return std::ranges::all_of(blocks, [](const BenchmarkBlocks& block) { return block.verdict.has_value(); });
}

}  // namespace

std::string_view side_name(Side side) { return side == Side::base ? "base" : "head"; }

Result<bench::Measurement> measure_in_rounds(const RunProgram& run, const RoundSettings& settings,
                                             const std::string& source) {
  constexpr std::array<Side, 4> order{Side::base, Side::head, Side::head, Side::base};
  std::vector<BenchmarkBlocks> blocks;
  double seconds = 0;
  int index = 0;
  int rounds = 0;
  while (rounds < settings.max_rounds) {
    for (const Side side : order) {
      auto ran = run(side, index);
      if (!ran) return std::unexpected(ran.error());
      seconds += ran->seconds;
      if (auto recorded = record_run(*ran, side, index, settings.confidence, settings.tolerance, blocks); !recorded)
        return std::unexpected(recorded.error());
      ++index;
    }
    ++rounds;
    for (auto& block : blocks) {
      const std::size_t n = block.base_blocks.size();
      const double log_speedup = bench::round_log_speedup(
          {block.base_blocks[n - 2], block.head_blocks[n - 2], block.head_blocks[n - 1], block.base_blocks[n - 1]});
      // A decided benchmark keeps its verdict and its interval: rounds run on for the others only.
      if (!block.verdict) block.verdict = block.test.add_round(log_speedup);
    }
    if (all_decided(blocks)) break;
  }
  for (auto& block : blocks)
    if (!block.verdict) block.verdict = block.test.final_look();

  bench::Measurement measurement;
  measurement.tolerance = settings.tolerance;
  measurement.confidence = settings.confidence;
  measurement.gpu = source;
  measurement.gpu_seconds = seconds;
  measurement.wall_seconds = seconds;  // the harness runs are the decision's wall too
  measurement.flush = "not applicable: the harness times its own runs";
  std::vector<bench::SpeedupInterval> intervals;
  std::vector<bench::Verdict> verdicts;
  double log_base = 0, log_head = 0;
  for (const auto& block : blocks) {
    measurement.sizes.push_back(size_of(block));
    intervals.push_back(measurement.sizes.back().interval);
    verdicts.push_back(measurement.sizes.back().verdict);
    log_base += std::log(measurement.sizes.back().t_reference_us);
    log_head += std::log(measurement.sizes.back().t_candidate_us);
  }
  const double count = static_cast<double>(blocks.size());
  measurement.t_base_us = std::exp(log_base / count);
  measurement.t_head_us = std::exp(log_head / count);
  measurement.interval = bench::combine_sizes(intervals);
  measurement.verdict = bench::combine_verdicts(verdicts, measurement.interval, settings.tolerance);
  if (measurement.verdict == bench::Verdict::inconclusive)
    measurement.reason = fmt::format("{} rounds of processes (the harness's rounds) decided nothing", rounds);
  measurement.notes.push_back(fmt::format("source: {}, {} A B B A rounds of processes ({} runs, {:.1f} s); compiler "
                                          "and flags: the project's own build, not kforecast's",
                                          source, rounds, index, seconds));
  return measurement;
}

}  // namespace kforecast::harness
