// SPDX-License-Identifier: Apache-2.0
#include "cli/policy_step.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kforecast::cli {
namespace {

// The placeholder entry_for() leaves until a later step decides the kernel.
bool is_placeholder(const std::string& note) { return note.starts_with("not verified: the forecasters"); }

// Returns whether the entry needs a GPU measurement.
bool decide(report::KernelEntry& entry, const PolicySettings& settings) {
  std::erase_if(entry.notes, is_placeholder);
  if (entry.change == report::Change::added) {
    entry.decision = report::Decision::skipped;
    entry.verdict = report::KernelVerdict::pass;
    entry.notes.push_back("a new kernel: no previous version to compare with");
    return false;
  }
  const auto& forecast = entry.forecast;
  const auto& bars = settings.thresholds;
  if (forecast && forecast->p_regression < bars.max_p_regression && forecast->confidence >= bars.min_confidence) {
    entry.decision = report::Decision::trusted_forecast;
    entry.verdict = report::KernelVerdict::pass;
    entry.notes.push_back(fmt::format("trusted forecast: P(regression) {:.2f} < {:.2f}, confidence {:.2f} >= {:.2f}",
                                      forecast->p_regression, bars.max_p_regression, forecast->confidence,
                                      bars.min_confidence));
    return false;
  }
  const std::string why =
      !forecast ? "no forecast"
      : forecast->p_regression >= bars.max_p_regression
          ? fmt::format("P(regression) {:.2f} >= {:.2f}", forecast->p_regression, bars.max_p_regression)
          : fmt::format("confidence {:.2f} < {:.2f}", forecast->confidence, bars.min_confidence);
  // Unverified until the measuring step measures it (cli/measure_step.hpp).
  entry.verdict = settings.fail_unverified ? report::KernelVerdict::fail : report::KernelVerdict::warn;
  entry.notes.push_back(fmt::format("needs a GPU measurement ({})", why));
  return true;
}

}  // namespace

std::vector<std::size_t> apply_policy(report::Report& report, const PolicySettings& settings) {
  std::vector<std::size_t> to_measure;
  for (std::size_t i = 0; i < report.kernels.size(); ++i) {
    auto& entry = report.kernels[i];
    if (entry.decision == report::Decision::forecast_only && entry.verdict == report::KernelVerdict::warn &&
        decide(entry, settings))
      to_measure.push_back(i);
    if (entry.verdict == report::KernelVerdict::fail) report.verdict = report::GateVerdict::fail;
  }
  return to_measure;
}

}  // namespace kforecast::cli
