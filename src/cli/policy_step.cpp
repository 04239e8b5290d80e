// SPDX-License-Identifier: Apache-2.0
#include "cli/policy_step.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kforecast::cli {
namespace {

// The placeholder entry_for() leaves until a later step decides the kernel.
bool is_placeholder(const std::string& note) { return note.starts_with("not verified: the forecasters"); }

void decide(report::KernelEntry& entry, const PolicySettings& settings) {
  std::erase_if(entry.notes, is_placeholder);
  if (entry.change == report::Change::added) {
    entry.decision = report::Decision::skipped;
    entry.verdict = report::KernelVerdict::pass;
    entry.notes.push_back("a new kernel: no previous version to compare with");
    return;
  }
  const auto& forecast = entry.forecast;
  const auto& bars = settings.thresholds;
  if (forecast && forecast->p_regression < bars.max_p_regression && forecast->confidence >= bars.min_confidence) {
    entry.decision = report::Decision::trusted_forecast;
    entry.verdict = report::KernelVerdict::pass;
    entry.notes.push_back(fmt::format("trusted forecast: P(regression) {:.2f} < {:.2f}, confidence {:.2f} >= {:.2f}",
                                      forecast->p_regression, bars.max_p_regression, forecast->confidence,
                                      bars.min_confidence));
    return;
  }
  const std::string why =
      !forecast ? "no forecast"
      : forecast->p_regression >= bars.max_p_regression
          ? fmt::format("P(regression) {:.2f} >= {:.2f}", forecast->p_regression, bars.max_p_regression)
          : fmt::format("confidence {:.2f} < {:.2f}", forecast->confidence, bars.min_confidence);
  entry.verdict = settings.fail_unverified ? report::KernelVerdict::fail : report::KernelVerdict::warn;
  entry.notes.push_back(fmt::format(
      "needs a GPU measurement ({}); not measured: pr does not run benchmarks yet, run `kforecast bench {}:{} "
      "--against BASE` on a GPU (policy.on_unverified = {})",
      why, entry.file, entry.name, settings.fail_unverified ? "fail" : "warn"));
}

}  // namespace

void apply_policy(report::Report& report, const PolicySettings& settings) {
  for (auto& entry : report.kernels) {
    if (entry.decision == report::Decision::forecast_only && entry.verdict == report::KernelVerdict::warn)
      decide(entry, settings);
    if (entry.verdict == report::KernelVerdict::fail) report.verdict = report::GateVerdict::fail;
  }
}

}  // namespace kforecast::cli
