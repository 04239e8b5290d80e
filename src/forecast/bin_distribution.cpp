// SPDX-License-Identifier: Apache-2.0
#include "forecast/bin_distribution.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

namespace kforecast::forecast {

Result<BinDistribution> BinDistribution::from_raw(std::span<const double> raw, double sum_tolerance) {
  if (!std::isfinite(sum_tolerance) || sum_tolerance < 0.0) {
    return usage_error(
        fmt::format("probability sum tolerance {} is invalid; it must be finite and >= 0", sum_tolerance));
  }
  if (raw.size() != bin_count) {
    return fail(ExitCode::could_not_run,
                fmt::format("expected {} probabilities (one per speedup bin), got {}", bin_count, raw.size()));
  }
  std::array<double, bin_count> probabilities{};
  double sum = 0.0;
  for (std::size_t i = 0; i < bin_count; ++i) {
    if (!std::isfinite(raw[i]) || raw[i] < 0.0) {
      return fail(ExitCode::could_not_run,
                  fmt::format("probability for bin {} is {}; each must be finite and >= 0", i + 1, raw[i]));
    }
    probabilities[i] = raw[i];
    sum += raw[i];
  }
  if (sum == 0.0) {
    return fail(ExitCode::could_not_run, "probabilities sum to 0; at least one bin must have a positive probability");
  }
  if (std::abs(sum - 1.0) > sum_tolerance) {
    return fail(ExitCode::could_not_run,
                fmt::format("probabilities sum to {}; the sum must be within {} of 1", sum, sum_tolerance));
  }
  for (double& p : probabilities) p /= sum;
  return BinDistribution(probabilities, sum);
}

BinDistribution BinDistribution::one_hot(SpeedupBin bin) {
  std::array<double, bin_count> probabilities{};
  probabilities[bin_offset(bin)] = 1.0;
  return BinDistribution(probabilities, 1.0);
}

BinDistribution BinDistribution::uniform() {
  std::array<double, bin_count> probabilities{};
  probabilities.fill(1.0 / static_cast<double>(bin_count));
  return BinDistribution(probabilities, 1.0);
}

SpeedupBin BinDistribution::predicted_bin() const {
  // max_element returns the first of equal maxima, which is the lower bin.
  const auto best = std::max_element(m_probabilities.begin(), m_probabilities.end());
  return all_speedup_bins[static_cast<std::size_t>(best - m_probabilities.begin())];
}

double BinDistribution::max_probability() const { return probability(predicted_bin()); }

double BinDistribution::negative_entropy() const {
  double sum = 0.0;
  for (const double p : m_probabilities) {
    if (p > 0.0) sum += p * std::log(p);  // 0 ln 0 = 0 in the limit
  }
  return sum;
}

double BinDistribution::top2_margin() const {
  std::array<double, bin_count> sorted = m_probabilities;
  std::partial_sort(sorted.begin(), sorted.begin() + 2, sorted.end(), std::greater<>());
  return sorted[0] - sorted[1];
}

double BinDistribution::confidence(ConfidenceScore score) const {
  switch (score) {
    case ConfidenceScore::max_probability:
      return max_probability();
    case ConfidenceScore::negative_entropy:
      return negative_entropy();
    case ConfidenceScore::top2_margin:
      return top2_margin();
  }
  throw Fatal(ExitCode::could_not_run, "unknown confidence score");
}

double BinDistribution::p_regression(double tolerance) const {
  if (!std::isfinite(tolerance) || tolerance <= -1.0) {
    throw Fatal(ExitCode::usage,
                fmt::format("regression tolerance {} is invalid; it must be finite and > -1", tolerance));
  }
  const double threshold_log2 = -std::log2(1.0 + tolerance);
  double p = 0.0;
  for (const SpeedupBin bin : all_speedup_bins) {
    const Log2Span span = bin_log2_span(bin);
    const double fraction_below = std::clamp((threshold_log2 - span.low) / (span.high - span.low), 0.0, 1.0);
    p += probability(bin) * fraction_below;
  }
  return p;
}

double BinDistribution::expected_log2_speedup() const {
  double sum = 0.0;
  for (const SpeedupBin bin : all_speedup_bins) sum += probability(bin) * midpoint_log2(bin);
  return sum;
}

double BinDistribution::expected_speedup() const { return std::exp2(expected_log2_speedup()); }

}  // namespace kforecast::forecast
