// SPDX-License-Identifier: Apache-2.0
#pragma once

// Reliability of a forecaster's confidence: among forecasts made with confidence c, about a
// fraction c should be right. The policy trusts confidence only as far as this holds.

#include <cstddef>
#include <span>
#include <vector>

#include "base/error.hpp"

namespace kforecast::forecast {

// One forecast's confidence (a probability, in [0, 1]) and whether its predicted bin was right.
struct ConfidenceOutcome {
  double confidence = 0.0;
  bool correct = false;
};

// Forecasts whose confidence falls in [low, high). An empty bucket has count 0 and mean
// confidence and accuracy 0; it carries no weight in the calibration error.
struct ReliabilityBucket {
  double low = 0.0;
  double high = 0.0;
  std::size_t count = 0;
  double mean_confidence = 0.0;
  double accuracy = 0.0;
};

inline constexpr std::size_t default_calibration_buckets = 10;  // the usual number of confidence buckets for ece

// `bucket_count` equal-width buckets over [0, 1]; bucket i holds confidences in
// [i/n, (i+1)/n), except that confidence 1 goes in the last bucket. Errors: no buckets, or a
// confidence that is not a number in [0, 1]. Empty input gives empty buckets.
Result<std::vector<ReliabilityBucket>> reliability_buckets(std::span<const ConfidenceOutcome> outcomes,
                                                           std::size_t bucket_count = default_calibration_buckets);

// Expected calibration error: sum over buckets of (count_b / N) * |accuracy_b - mean_confidence_b|,
// in [0, 1]. Empty input is an error.
Result<double> expected_calibration_error(std::span<const ConfidenceOutcome> outcomes,
                                          std::size_t bucket_count = default_calibration_buckets);

}  // namespace kforecast::forecast
