// SPDX-License-Identifier: Apache-2.0
#include "forecasters/embedded_forecaster.hpp"

#include <array>

#include <fmt/format.h>

#include "embedded/pair_forecast.hpp"
#include "embedded/ordinal_model.hpp"
#include "forecasters/forecast_entry.hpp"

namespace kforecast::forecasters {

std::string unseen_change_rationale(std::span<const std::string> changes) {
  std::string what;
  for (const auto& change : changes) what += (what.empty() ? "" : "; ") + change;
  return fmt::format("its text reads the same at both revisions and the model reads only the text; what changed "
                     "lies outside it{}: a wide forecast around no change, not one to trust",
                     what.empty() ? "" : " (" + what + ")");
}

forecast::BinDistribution unseen_change_distribution() {
  // Most mass on bins 4 and 5 (0.71 < S <= 1.41), since a change outside a kernel's text is most
  // often small, and every bin well above zero: no bin near the confidence a policy trusts
  // (0.27 at most), and about half the mass on a slowdown beyond the tolerance.
  static const auto distribution =
      *forecast::BinDistribution::from_raw(std::array{0.04, 0.07, 0.12, 0.27, 0.25, 0.12, 0.08, 0.05});
  return distribution;
}

forecast::BinDistribution widened(const forecast::BinDistribution& distribution) {
  std::array<double, forecast::bin_count> mixed{};
  for (std::size_t bin = 0; bin < mixed.size(); ++bin)
    mixed[bin] = 0.5 * distribution.probabilities()[bin] + 0.5 / static_cast<double>(mixed.size());
  return *forecast::BinDistribution::from_raw(mixed);
}

Result<ForecastRun> EmbeddedForecaster::forecast(std::span<const ForecastRequest> requests) const {
  const embedded::OrdinalModel& model = embedded::default_model();
  const std::string model_text = model.status == embedded::ModelStatus::trained
                                     ? fmt::format("ordinal logistic, trained on {} pairs", model.training_pairs)
                                     : "ordinal logistic, untrained prior";
  // One cache per run: a text both sides (or two kernels) share is read and compiled once.
  embedded::FeatureCache features(m_context);
  ForecastRun run;
  run.kernels.reserve(requests.size());
  for (const auto& request : requests) {
    KernelForecast kernel;
    if (request.text_unchanged) {
      kernel.forecast = forecast_entry(std::string(name()), model_text, unseen_change_distribution(),
                                       m_tolerance, unseen_change_rationale(request.changes));
    } else {
      const auto forecast = embedded::forecast_pair(model, features, request.reference, request.candidate);
      // The model was trained on pairs whose launches were known; without one its answer stands
      // on the text alone, and says so.
      const bool sizes_known = request.reference.launch && request.candidate.launch;
      kernel.forecast = forecast_entry(
          std::string(name()), model_text, sizes_known ? forecast.distribution : widened(forecast.distribution),
          m_tolerance,
          sizes_known ? forecast.rationale
                      : forecast.rationale + "; sizes unknown (no launch spec or capture gives its launch): widened");
    }
    run.kernels.push_back(std::move(kernel));
  }
  return run;
}

}  // namespace kforecast::forecasters
