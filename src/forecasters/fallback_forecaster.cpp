// SPDX-License-Identifier: Apache-2.0
#include "forecasters/fallback_forecaster.hpp"

namespace kforecast::forecasters {

Result<ForecastRun> FallbackForecaster::forecast(std::span<const ForecastRequest> requests) const {
  auto run = m_primary->forecast(requests);
  if (!run) return run;
  std::vector<std::size_t> failed;
  std::vector<ForecastRequest> retried;
  for (std::size_t i = 0; i < run->kernels.size(); ++i)
    if (!run->kernels[i].forecast) {
      failed.push_back(i);
      retried.push_back(requests[i]);
    }
  // Nothing failed: the stand-in is not asked at all, so it costs nothing and says nothing.
  if (failed.empty()) return run;
  auto standing_in = m_stand_in->forecast(retried);
  if (!standing_in) return std::unexpected(standing_in.error());
  for (std::size_t k = 0; k < failed.size(); ++k) {
    KernelForecast& kernel = run->kernels[failed[k]];
    KernelForecast& stand_in = standing_in->kernels.at(k);
    for (auto& note : stand_in.notes) kernel.notes.push_back(std::move(note));
    if (!stand_in.forecast) continue;
    kernel.forecast = std::move(stand_in.forecast);
    kernel.forecast->fallback_for = std::string(m_primary->name());
    kernel.forecast->fallback_reason = kernel.failure;
  }
  for (auto& note : standing_in->notes) run->notes.push_back(std::move(note));
  return run;
}

}  // namespace kforecast::forecasters
