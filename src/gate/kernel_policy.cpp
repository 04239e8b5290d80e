// SPDX-License-Identifier: Apache-2.0
#include "gate/kernel_policy.hpp"

#include <string>

#include <fmt/format.h>

namespace kforecast::gate {
namespace {

// The policy for one entry still open: a forecast that policy::is_trusted
// trusts settles its kernel (trusted_forecast, pass); every other changed kernel needs a GPU
// measurement and stays unverified until the measuring step (gate/measure_step.hpp) measures it.
// A new kernel has nothing to compare with. Returns whether the entry needs a measurement.
// `second_opinion`: the embedded forecaster's forecast, asked for where the author's standing
// keeps the LLM's forecast from passing the kernel on its own; nullptr otherwise.
bool decide(report::KernelEntry& entry, const policy::TrustThresholds& bars, Unverified unverified,
            const git::ChangeAuthor& author, const report::ForecastEntry* second_opinion) {
  if (entry.change == report::Change::added) {
    entry.decision = report::Decision::skipped;
    entry.verdict = report::KernelVerdict::pass;
    entry.notes.push_back("a new kernel: no previous version to compare with");
    return false;
  }
  const auto& forecast = entry.forecast;
  // The report's P(regression) and confidence were taken at bench.tolerance from the distribution.
  const bool author_bars = forecast && steerable(*forecast) && author.trust == git::AuthorTrust::untrusted;
  if (author_bars && second_opinion != nullptr &&
      policy::is_trusted(second_opinion->p_regression, second_opinion->confidence, bars)) {
    entry.decision = report::Decision::trusted_forecast;
    entry.verdict = report::KernelVerdict::pass;
    entry.notes.push_back(fmt::format(
        "trusted on the embedded forecaster's forecast: P(regression) {:.2f} < {:.2f}, confidence {:.2f} >= {:.2f} "
        "(an LLM forecast alone does not pass a kernel from an untrusted author: {})",
        second_opinion->p_regression, bars.max_p_regression, second_opinion->confidence, bars.min_confidence,
        author.reason));
    return false;
  }
  if (forecast && !author_bars && policy::is_trusted(forecast->p_regression, forecast->confidence, bars)) {
    entry.decision = report::Decision::trusted_forecast;
    entry.verdict = report::KernelVerdict::pass;
    entry.notes.push_back(fmt::format("trusted forecast: P(regression) {:.2f} < {:.2f}, confidence {:.2f} >= {:.2f}",
                                      forecast->p_regression, bars.max_p_regression, forecast->confidence,
                                      bars.min_confidence));
    return false;
  }
  const std::string why =
      !forecast ? "no forecast"
      : author_bars
          ? fmt::format("an LLM forecast alone does not pass a kernel from an untrusted author: {}", author.reason)
      : forecast->p_regression >= bars.max_p_regression
          ? fmt::format("P(regression) {:.2f} >= {:.2f}", forecast->p_regression, bars.max_p_regression)
          : fmt::format("confidence {:.2f} < {:.2f}", forecast->confidence, bars.min_confidence);
  entry.verdict = unverified == Unverified::fail ? report::KernelVerdict::fail : report::KernelVerdict::warn;
  entry.notes.push_back(fmt::format("needs a GPU measurement ({})", why));
  return true;
}

}  // namespace

bool steerable(const report::ForecastEntry& forecast) {
  return forecast.forecaster == "llm" && forecast.fallback_for.empty();
}

std::vector<std::size_t> apply_policy(std::vector<KernelCase>& cases, const policy::TrustThresholds& bars,
                                      Unverified unverified, const git::ChangeAuthor& author) {
  std::vector<std::size_t> to_measure;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    auto& entry = cases[i].entry;
    const auto& second_opinion = cases[i].second_opinion;
    if (entry.decision == report::Decision::forecast_only && entry.verdict == report::KernelVerdict::warn &&
        decide(entry, bars, unverified, author, second_opinion ? &*second_opinion : nullptr))
      to_measure.push_back(i);
  }
  return to_measure;
}

}  // namespace kforecast::gate
