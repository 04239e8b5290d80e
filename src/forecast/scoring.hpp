// SPDX-License-Identifier: Apache-2.0
#pragma once

// Proper scoring rules for a forecast against the bin that was measured, and their means over a
// set of forecasts. Lower is better for every score; a perfect one-hot forecast scores 0.

#include <span>

#include "base/error.hpp"
#include "forecast/bin_distribution.hpp"
#include "forecast/speedup_bin.hpp"

namespace kforecast::forecast {

// One forecast and the bin its kernel pair was measured in.
struct ForecastOutcome {
  BinDistribution forecast;
  SpeedupBin true_bin;
};

// 0.5 * sum_k (p_k - y_k)^2 with y the one-hot observation; in [0, 1].
double half_brier(const BinDistribution& forecast, SpeedupBin true_bin);

// Ranked probability score, the discrete CRPS over the ordered bins: sum over k = 1..7 of
// (F_k - Y_k)^2, F and Y the cumulative forecast and observation. Raw, in bin units: in [0, 7]
// (all mass on bin 1 when bin 8 was measured scores 7). Unlike Brier it charges a forecast
// more the further its mass sits from the measured bin.
double ranked_probability_score(const BinDistribution& forecast, SpeedupBin true_bin);

// ranked_probability_score / 7, in [0, 1].
double normalised_ranked_probability_score(const BinDistribution& forecast, SpeedupBin true_bin);

// A probability of 0 on the measured bin would give +infinity and swamp every mean; `floor`
// caps the penalty at -ln(floor).
inline constexpr double default_nll_floor = 1e-6;

// -ln(max(p_true, floor)).
double negative_log_likelihood(const BinDistribution& forecast, SpeedupBin true_bin, double floor = default_nll_floor);

// The means below need at least one forecast; empty input is an error (a mean of nothing would
// read as a perfect score).
Result<double> mean_half_brier(std::span<const ForecastOutcome> outcomes);
Result<double> mean_ranked_probability_score(std::span<const ForecastOutcome> outcomes);
Result<double> mean_negative_log_likelihood(std::span<const ForecastOutcome> outcomes,
                                            double floor = default_nll_floor);

// Fraction whose predicted bin is the measured bin.
Result<double> accuracy(std::span<const ForecastOutcome> outcomes);

// Fraction whose predicted bin is the measured bin or a neighbour of it.
Result<double> within_one_accuracy(std::span<const ForecastOutcome> outcomes);

}  // namespace kforecast::forecast
