// SPDX-License-Identifier: Apache-2.0
#include "forecast/scoring.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace kforecast::forecast {
namespace {

template <class Score>
Result<double> mean_over(std::span<const ForecastOutcome> outcomes, Score score) {
  if (outcomes.empty()) return fail(ExitCode::could_not_run, "no forecasts to score");
  double sum = 0.0;
  for (const ForecastOutcome& outcome : outcomes) sum += score(outcome);
  return sum / static_cast<double>(outcomes.size());
}

}  // namespace

double half_brier(const BinDistribution& forecast, SpeedupBin true_bin) {
  double sum = 0.0;
  for (const SpeedupBin bin : all_speedup_bins) {
    const double observed = bin == true_bin ? 1.0 : 0.0;
    const double difference = forecast.probability(bin) - observed;
    sum += difference * difference;
  }
  return sum / 2.0;
}

double ranked_probability_score(const BinDistribution& forecast, SpeedupBin true_bin) {
  double sum = 0.0;
  double cumulative_forecast = 0.0;
  // The last cumulative pair is always (1, 1) and adds nothing, hence bins 1..7.
  for (std::size_t i = 0; i + 1 < bin_count; ++i) {
    const SpeedupBin bin = all_speedup_bins[i];
    cumulative_forecast += forecast.probability(bin);
    const double cumulative_observed = bin_number(bin) >= bin_number(true_bin) ? 1.0 : 0.0;
    const double difference = cumulative_forecast - cumulative_observed;
    sum += difference * difference;
  }
  return sum;
}

double normalised_ranked_probability_score(const BinDistribution& forecast, SpeedupBin true_bin) {
  return ranked_probability_score(forecast, true_bin) / static_cast<double>(bin_count - 1);
}

double negative_log_likelihood(const BinDistribution& forecast, SpeedupBin true_bin, double floor) {
  return -std::log(std::max(forecast.probability(true_bin), floor));
}

Result<double> mean_half_brier(std::span<const ForecastOutcome> outcomes) {
  return mean_over(outcomes, [](const ForecastOutcome& o) { return half_brier(o.forecast, o.true_bin); });
}

Result<double> mean_ranked_probability_score(std::span<const ForecastOutcome> outcomes) {
  return mean_over(outcomes, [](const ForecastOutcome& o) { return ranked_probability_score(o.forecast, o.true_bin); });
}

Result<double> mean_negative_log_likelihood(std::span<const ForecastOutcome> outcomes, double floor) {
  return mean_over(
      outcomes, [floor](const ForecastOutcome& o) { return negative_log_likelihood(o.forecast, o.true_bin, floor); });
}

Result<double> accuracy(std::span<const ForecastOutcome> outcomes) {
  return mean_over(outcomes,
                   [](const ForecastOutcome& o) { return o.forecast.predicted_bin() == o.true_bin ? 1.0 : 0.0; });
}

Result<double> within_one_accuracy(std::span<const ForecastOutcome> outcomes) {
  return mean_over(outcomes, [](const ForecastOutcome& o) {
    return std::abs(bin_number(o.forecast.predicted_bin()) - bin_number(o.true_bin)) <= 1 ? 1.0 : 0.0;
  });
}

}  // namespace kforecast::forecast
