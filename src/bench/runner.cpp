// SPDX-License-Identifier: Apache-2.0
#include "bench/runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "bench/pair_run.hpp"
#include "bench/resolved_launch.hpp"

namespace kforecast::bench {

Measurement measure_pair(Gpu& gpu, const SupportKernels& support, const CompiledKernel& reference,
                         const LaunchSpec& reference_spec, const CompiledKernel& candidate,
                         const LaunchSpec& candidate_spec, const RunnerOptions& options) {
  // Every size resolved first: a spec that does not bind fails before any GPU work.
  std::vector<ResolvedSize> sizes;
  for (const auto& size : candidate_spec.sizes) {
    ResolvedSize resolved;
    for (auto [kernel, spec, into] : {std::tuple{&reference, &reference_spec, &resolved.reference},
                                      std::tuple{&candidate, &candidate_spec, &resolved.candidate}}) {
      auto launch = resolve_launch(*spec, size, kernel->parameters);
      if (!launch) {
        auto failed = failed_measurement(fmt::format("{}: {}", kernel->label, launch.error().message), gpu.device().name);
        failed.tolerance = options.tolerance;
        failed.confidence = options.confidence;
        return failed;
      }
      *into = std::move(*launch);
    }
    sizes.push_back(std::move(resolved));
  }
  return measure_resolved(gpu, support, reference, candidate, std::move(sizes), options);
}

Measurement measure_resolved(Gpu& gpu, const SupportKernels& support, const CompiledKernel& reference,
                             const CompiledKernel& candidate, std::vector<ResolvedSize> sizes,
                             const RunnerOptions& options) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  Measurement measurement;
  measurement.gpu = gpu.device().name;
  measurement.tolerance = options.tolerance;
  measurement.confidence = options.confidence;
  const auto seconds = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  const auto failed = [&](std::string reason) {
    auto result = failed_measurement(std::move(reason), gpu.device().name);
    result.tolerance = options.tolerance;
    result.confidence = options.confidence;
    result.sizes = std::move(measurement.sizes);
    result.gpu_seconds = seconds();
    return result;
  };
  if (sizes.empty()) return failed("nothing to measure: no size");
  Side sides[2];
  sides[0].kernel = &reference;
  sides[1].kernel = &candidate;
  PairRun run(gpu, support, options);
  std::vector<SpeedupInterval> intervals;
  std::vector<Verdict> verdicts;
  double log_base = 0, log_head = 0;
  const double budget_per_size = options.max_gpu_seconds / static_cast<double>(sizes.size());
  for (auto& size : sizes) {
    sides[0].launch = std::move(size.reference);
    sides[1].launch = std::move(size.candidate);
    for (Side& side : sides) {
      if (!side.function) {
        auto function = gpu.load_function(side.kernel->cubin, side.kernel->lowered_name, side.launch.shared_bytes);
        if (!function) return failed(fmt::format("loading {}: {}", side.kernel->label, function.error().message));
        side.function = *function;
      }
    }
    std::string reason;
    auto result = run.measure_size(sides[0], sides[1], reason, budget_per_size);
    measurement.sizes.push_back(result);
    if (result.verdict == Verdict::failed) {
      auto failure = failed(reason);
      failure.blame = result.blame;
      return failure;
    }
    if (!reason.empty()) measurement.notes.push_back(reason);
    intervals.push_back(result.interval);
    verdicts.push_back(result.verdict);
    log_base += std::log(result.t_reference_us);
    log_head += std::log(result.t_candidate_us);
    for (const auto& clock : result.block_clocks) measurement.throttle_reasons |= clock.throttle_reasons;
  }
  measurement.interval = combine_sizes(intervals);
  measurement.verdict = combine_verdicts(verdicts, measurement.interval, options.tolerance);
  if (verdicts.size() == 1) measurement.verdict = verdicts.front();
  const double n = static_cast<double>(intervals.size());
  measurement.t_base_us = std::exp(log_base / n);
  measurement.t_head_us = std::exp(log_head / n);
  std::vector<double> clocks;
  for (const auto& size : measurement.sizes)
    for (const auto& clock : size.block_clocks)
      if (clock.sm_mhz > 0) clocks.push_back(clock.sm_mhz);
  if (!clocks.empty()) {
    measurement.sm_clock_median_mhz = static_cast<unsigned>(median(clocks));
    measurement.sm_clock_min_mhz = static_cast<unsigned>(*std::ranges::min_element(clocks));
  }
  if (measurement.verdict == Verdict::inconclusive && !measurement.notes.empty())
    measurement.reason = measurement.notes.front();
  // Over several sizes the verdict is the combined interval's, and so is a borderline case.
  if (measurement.verdict == Verdict::inconclusive && intervals.size() > 1)
    if (auto borderline = borderline_reason(measurement.interval, options.tolerance); !borderline.empty())
      measurement.reason = "all sizes combined: " + borderline;
  measurement.gpu_seconds = seconds();
  return measurement;
}

}  // namespace kforecast::bench
