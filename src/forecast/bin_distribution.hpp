// SPDX-License-Identifier: Apache-2.0
#pragma once

// A forecast: a probability for each of the eight speedup bins, and what follows from it
// (predicted bin, confidence, P(regression), expected speedup). Every BinDistribution is valid:
// eight finite, non-negative probabilities that sum to 1.

#include <array>
#include <span>

#include "base/error.hpp"
#include "forecast/speedup_bin.hpp"

namespace kforecast::forecast {

// How sure a forecast is; higher means surer for every score. max_probability is the design's
// confidence (and the only one that is a probability, so the only one to calibrate); the others
// serve to rank forecasts (selective prediction).
enum class ConfidenceScore {
  max_probability,   // p of the predicted bin, in [1/8, 1]
  negative_entropy,  // sum p ln p, in [-ln 8, 0]
  top2_margin,       // largest p minus second largest, in [0, 1]
};

class BinDistribution {
 public:
  // A forecaster's raw answer is rarely exactly normalised; this much deviation of the sum
  // from 1 is accepted and renormalised, more means the answer is not a distribution.
  static constexpr double default_sum_tolerance = 0.05;

  // Validates and renormalises a forecaster's answer: exactly 8 values, each finite and >= 0,
  // summing to within `sum_tolerance` of 1 (a sum of 0 is never accepted). The raw sum is kept
  // as a health signal of the forecaster.
  static Result<BinDistribution> from_raw(std::span<const double> raw, double sum_tolerance = default_sum_tolerance);

  // Certainty: all mass on one bin (e.g. identical machine code is bin 4 for sure).
  static BinDistribution one_hot(SpeedupBin bin);

  // Knowing nothing: 1/8 on each bin.
  static BinDistribution uniform();

  double probability(SpeedupBin bin) const { return m_probabilities[bin_offset(bin)]; }
  const std::array<double, bin_count>& probabilities() const { return m_probabilities; }

  // Sum of the values given to from_raw before renormalising; 1 for one_hot and uniform.
  double raw_sum() const { return m_raw_sum; }

  // The most probable bin. Ties go to the lower bin: the more pessimistic reading, so a tie
  // never hides a possible regression from the gate.
  SpeedupBin predicted_bin() const;

  double max_probability() const;
  double negative_entropy() const;
  double top2_margin() const;
  double confidence(ConfidenceScore score) const;

  // The probability that the candidate is slower than the reference by more than `tolerance`,
  // i.e. that S < 1 / (1 + tolerance). Within a bin, mass is taken as spread uniformly in log2 S
  // over bin_log2_span (bins 1 and 8 over their representative half octave): bins wholly below
  // the threshold count fully, the bin containing it counts the fraction of its span below it.
  // With tolerance 0: p1 + p2 + p3 + p4. With tolerance 0.02 the threshold is log2(1/1.02) =
  // -0.02857, so bin 4 ([-0.5, 0]) counts 0.9429 of its mass.
  // Precondition: tolerance finite and > -1 (a negative tolerance asks for a minimum speedup);
  // otherwise throws Fatal.
  double p_regression(double tolerance) const;

  // sum p_k * midpoint_log2(k): the forecast's mean in log2 S.
  double expected_log2_speedup() const;

  // 2^expected_log2_speedup: the geometric mean speedup. Speedups are ratios, so they average in
  // log space; an arithmetic mean would rate "2x faster or 2x slower, evenly" as 1.25x, not 1x.
  double expected_speedup() const;

 private:
  BinDistribution(const std::array<double, bin_count>& probabilities, double raw_sum)
      : m_probabilities(probabilities), m_raw_sum(raw_sum) {}

  std::array<double, bin_count> m_probabilities;
  double m_raw_sum;
};

}  // namespace kforecast::forecast
