// SPDX-License-Identifier: Apache-2.0
#include "forecast/calibration.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace kforecast::forecast {
namespace {

// i / n rather than i * (1 / n): a correctly rounded quotient equals the decimal literal a
// caller writes for the same edge (7 / 10 == 0.7, while 7 * 0.1 != 0.7).
double edge(std::size_t i, std::size_t n) { return static_cast<double>(i) / static_cast<double>(n); }

}  // namespace

Result<std::vector<ReliabilityBucket>> reliability_buckets(std::span<const ConfidenceOutcome> outcomes,
                                                           std::size_t bucket_count) {
  if (bucket_count == 0) return usage_error("calibration needs at least one confidence bucket");
  std::vector<ReliabilityBucket> buckets(bucket_count);
  for (std::size_t i = 0; i < bucket_count; ++i) {
    buckets[i].low = edge(i, bucket_count);
    buckets[i].high = edge(i + 1, bucket_count);
  }
  std::vector<double> confidence_sums(bucket_count, 0.0);
  std::vector<std::size_t> correct_counts(bucket_count, 0);
  for (std::size_t item = 0; item < outcomes.size(); ++item) {
    const double confidence = outcomes[item].confidence;
    if (!(confidence >= 0.0 && confidence <= 1.0)) {  // also rejects NaN
      return fail(ExitCode::could_not_run,
                  fmt::format("confidence {} of forecast {} is not a probability in [0, 1]", confidence, item + 1));
    }
    std::size_t b =
        std::min(static_cast<std::size_t>(confidence * static_cast<double>(bucket_count)), bucket_count - 1);
    // The product can round below an edge (15/22 * 22 < 15); the edges themselves decide.
    while (b + 1 < bucket_count && confidence >= edge(b + 1, bucket_count)) ++b;
    while (b > 0 && confidence < edge(b, bucket_count)) --b;
    buckets[b].count += 1;
    confidence_sums[b] += confidence;
    if (outcomes[item].correct) correct_counts[b] += 1;
  }
  for (std::size_t b = 0; b < bucket_count; ++b) {
    if (buckets[b].count == 0) continue;
    const auto n = static_cast<double>(buckets[b].count);
    buckets[b].mean_confidence = confidence_sums[b] / n;
    buckets[b].accuracy = static_cast<double>(correct_counts[b]) / n;
  }
  return buckets;
}

Result<double> expected_calibration_error(std::span<const ConfidenceOutcome> outcomes, std::size_t bucket_count) {
  if (outcomes.empty()) return fail(ExitCode::could_not_run, "no forecasts to measure calibration on");
  const auto buckets = reliability_buckets(outcomes, bucket_count);
  if (!buckets) return std::unexpected(buckets.error());
  double error = 0.0;
  for (const ReliabilityBucket& bucket : *buckets) {
    const double weight = static_cast<double>(bucket.count) / static_cast<double>(outcomes.size());
    error += weight * std::abs(bucket.accuracy - bucket.mean_confidence);
  }
  return error;
}

}  // namespace kforecast::forecast
