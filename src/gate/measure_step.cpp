// SPDX-License-Identifier: Apache-2.0
#include "gate/measure_step.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "bench/statistics.hpp"

namespace kforecast::gate {
namespace {

using bench::Verdict;

// A failed measurement was never timed, whatever its interval holds.
bool timed(const bench::Measurement& m) {
  return m.verdict != Verdict::failed && m.interval.speedup > 0 && std::isfinite(m.interval.speedup);
}

std::string interval_text(const bench::Measurement& m) {
  const auto bound = [](double value) { return std::isfinite(value) ? fmt::format("{:.4f}", value) : "unbounded"; };
  return fmt::format("{:.4f}x [{}, {}] at {:g}% confidence, tolerance {:g}%", m.interval.speedup, bound(m.interval.low),
                     bound(m.interval.high), m.confidence * 100, m.tolerance * 100);
}

report::MeasurementEntry measurement_entry(const bench::Measurement& m) {
  report::MeasurementEntry entry;
  if (timed(m)) {
    entry.speedup = m.interval.speedup;
    entry.ci_low = m.interval.low;
    entry.ci_high = m.interval.high;
    entry.bin = bench::measurement_bin(m.interval.speedup);
    entry.t_base_us = m.t_base_us;
    entry.t_head_us = m.t_head_us;
  }
  entry.verdict = std::string(bench::verdict_name(m.verdict));
  entry.gpu = m.gpu;
  entry.gpu_seconds = m.gpu_seconds;
  entry.wall_seconds = m.wall_seconds;
  entry.reason = m.reason;
  return entry;
}

}  // namespace

std::vector<std::size_t> measurement_order(std::span<const KernelCase> cases, std::span<const std::size_t> to_measure) {
  std::vector<std::size_t> order(to_measure.begin(), to_measure.end());
  // A kernel without a forecast sorts as P(regression) 2: above any forecast.
  const auto risk = [&](std::size_t index) {
    const auto& forecast = cases[index].entry.forecast;
    return forecast ? std::pair{-forecast->p_regression, forecast->confidence} : std::pair{-2.0, 0.0};
  };
  std::ranges::stable_sort(order, [&](std::size_t a, std::size_t b) { return risk(a) < risk(b); });
  return order;
}

void apply_measurement(report::KernelEntry& entry, const bench::Measurement& m, const MeasureSettings& settings) {
  entry.decision = report::Decision::measured;
  entry.measurement = measurement_entry(m);
  const std::string where = m.gpu.empty() ? "" : fmt::format(" on {}", m.gpu);
  switch (m.verdict) {
    case Verdict::faster:
    case Verdict::same:
      entry.verdict = report::KernelVerdict::pass;
      entry.notes.push_back(fmt::format("measured {}{}: {}", bench::verdict_name(m.verdict), where, interval_text(m)));
      break;
    case Verdict::regression:
      entry.verdict = report::KernelVerdict::fail;
      entry.notes.push_back(fmt::format("measured regression{}: {}, slower beyond the tolerance{}", where,
                                        interval_text(m),
                                        m.regression_checks > 1 ? " (confirmed in a second fresh process)" : ""));
      break;
    case Verdict::failed:
      // A broken base says nothing about the head: the kernel is unverified, as it is without a
      // GPU, and policy.on_unverified decides. A head that broke something itself is blamed on it.
      if (m.blame == bench::Blame::reference) {
        entry.verdict = settings.fail_unverified ? report::KernelVerdict::fail : report::KernelVerdict::warn;
        entry.unverified = true;
        entry.measurement->base_broken = true;
        entry.notes.push_back(fmt::format("unverified: measured{}, but {}; the head is not judged "
                                          "(policy.on_unverified = {})",
                                          where, m.reason.empty() ? "the base is broken" : m.reason,
                                          settings.fail_unverified ? "fail" : "warn"));
        break;
      }
      entry.verdict = report::KernelVerdict::fail;
      entry.notes.push_back(
          fmt::format("measurement failed{}: {}", where, m.reason.empty() ? "no reason given" : m.reason));
      break;
    case Verdict::inconclusive: {
      // A borderline slowdown (fresh processes disagreed at the tolerance) has a setting of its own.
      const bool borderline = m.reason.starts_with("borderline:");
      const bool fails = borderline ? settings.fail_borderline : settings.fail_inconclusive;
      entry.verdict = fails ? report::KernelVerdict::fail : report::KernelVerdict::warn;
      entry.notes.push_back(fmt::format("measurement inconclusive{}: {}{} ({})", where,
                                        m.reason.empty() ? "the interval decided nothing" : m.reason,
                                        timed(m) ? "; " + interval_text(m) : "",
                                        borderline ? fmt::format("policy.on_borderline = {}", fails ? "fail" : "warn")
                                                   : fmt::format("policy.fail_on_inconclusive = {}", fails)));
      break;
    }
  }
  for (const auto& note : m.notes) entry.notes.push_back("measurement: " + note);
}

std::optional<std::string> replay_did_not_fit(const bench::Measurement& measurement) {
  if (measurement.verdict != bench::Verdict::failed || measurement.blame != bench::Blame::candidate ||
      measurement.reason.find("cuLaunchKernel") == std::string::npos)
    return std::nullopt;
  return fmt::format(
      "the base's captured launches do not launch the head's kernel ({}); its launch configuration changed with it, "
      "so the base's is no test of the head: record the head's own launches (`kforecast capture -- COMMAND` at the "
      "head) or give the kernel a launch spec",
      measurement.reason);
}

void mark_unverified(report::KernelEntry& entry, std::string_view reason, const MeasureSettings& settings) {
  entry.verdict = settings.fail_unverified ? report::KernelVerdict::fail : report::KernelVerdict::warn;
  entry.unverified = true;
  entry.notes.push_back(fmt::format("unverified: not measured: {} (policy.on_unverified = {})", reason,
                                    settings.fail_unverified ? "fail" : "warn"));
}

std::string budget_spent_reason(double spent_seconds, double budget_seconds) {
  return fmt::format("the GPU budget is spent ({:.1f} s used of policy.gpu_budget_seconds = {:g}; riskier kernels were "
                     "measured first)",
                     spent_seconds, budget_seconds);
}

MeasureOutcome measure_kernels(std::span<KernelCase> cases, std::span<const std::size_t> to_measure,
                               const MeasureSettings& settings, const MeasureKernel& measure,
                               const RunDeadline* deadline) {
  MeasureOutcome outcome;
  for (const std::size_t index : measurement_order(cases, to_measure)) {
    auto& entry = cases[index].entry;
    if (deadline != nullptr && deadline->passed()) {
      mark_unverified(entry, deadline->reason() + " (riskier kernels were measured first)", settings);
      ++outcome.over_budget;
      continue;
    }
    if (settings.budget_seconds > 0 && outcome.spent_seconds >= settings.budget_seconds) {
      mark_unverified(entry, budget_spent_reason(outcome.spent_seconds, settings.budget_seconds), settings);
      ++outcome.over_budget;
      continue;
    }
    auto measurement = measure(index);
    if (!measurement) {
      mark_unverified(entry, measurement.error().message, settings);
      continue;
    }
    apply_measurement(entry, *measurement, settings);
    outcome.spent_seconds += measurement->gpu_seconds;
    outcome.wall_seconds += measurement->wall_seconds;
    ++outcome.measured;
  }
  return outcome;
}

void leave_unmeasured(std::span<KernelCase> cases, std::span<const std::size_t> to_measure, std::string_view reason,
                      const MeasureSettings& settings) {
  for (const std::size_t index : to_measure) mark_unverified(cases[index].entry, reason, settings);
}

report::GpuTime gpu_time(std::span<const KernelCase> cases, const MeasureOutcome& outcome, std::string note) {
  report::GpuTime time;
  time.spent_seconds = outcome.spent_seconds;
  time.wall_seconds = outcome.wall_seconds;
  time.measured = outcome.measured;
  time.note = std::move(note);
  std::vector<double> costs;
  for (const auto& kernel_case : cases) {
    const auto& entry = kernel_case.entry;
    if (entry.change == report::Change::modified || entry.change == report::Change::renamed) ++time.measurable;
    if (entry.measurement) costs.push_back(entry.measurement->gpu_seconds);
  }
  if (!costs.empty()) {
    time.per_kernel_seconds = bench::median(costs);
    time.saved_seconds = *time.per_kernel_seconds * static_cast<double>(time.measurable) - time.spent_seconds;
  }
  return time;
}

policy::LedgerEntry ledger_entry(const report::KernelEntry& entry, const bench::Measurement& m,
                                 policy::LedgerEntry run) {
  policy::LedgerEntry line = std::move(run);
  line.kernel = entry.name;
  line.file = entry.file;
  line.hardware = m.gpu;
  line.driver = m.driver;
  if (entry.forecast) {
    line.forecaster = entry.forecast->forecaster;
    line.model = entry.forecast->model;
    line.forecaster_version =
        entry.forecast->prompt_version.empty() ? entry.forecast->model : entry.forecast->prompt_version;
    if (auto distribution = forecast::BinDistribution::from_raw(entry.forecast->probabilities))
      line.forecast = *distribution;
  } else {
    line.forecaster = "none";  // the forecast failed; a uniform distribution stands in
  }
  if (timed(m)) {
    line.speedup = m.interval.speedup;
    if (std::isfinite(m.interval.low)) line.ci_low = m.interval.low;
    if (std::isfinite(m.interval.high)) line.ci_high = m.interval.high;
  }
  line.verdict = std::string(bench::verdict_name(m.verdict));
  line.confidence = m.confidence;
  line.tolerance = m.tolerance;
  line.gpu_seconds = m.gpu_seconds;
  line.reason = m.reason;
  return line;
}

}  // namespace kforecast::gate
