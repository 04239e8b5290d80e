// SPDX-License-Identifier: Apache-2.0
#pragma once

// forecast.fallback as a Forecaster: the primary forecasts every kernel; each kernel it gives no
// forecast for is forecast by the stand-in, labelled as a fallback with the primary's failure
// (ForecastEntry::fallback_for, fallback_reason). The policy then treats it as any forecast of
// the stand-in. Notes stay the primary's (its failure note says what stands in), followed by the
// stand-in's.

#include <memory>

#include "forecasters/forecaster.hpp"

namespace kforecast::forecasters {

class FallbackForecaster final : public Forecaster {
 public:
  FallbackForecaster(std::unique_ptr<Forecaster> primary, std::unique_ptr<Forecaster> stand_in)
      : m_primary(std::move(primary)), m_stand_in(std::move(stand_in)) {}

  // The primary's: the report names the forecaster that was asked.
  std::string_view name() const override { return m_primary->name(); }
  Result<ForecastRun> forecast(std::span<const ForecastRequest> requests) const override;

 private:
  std::unique_ptr<Forecaster> m_primary;
  std::unique_ptr<Forecaster> m_stand_in;
};

}  // namespace kforecast::forecasters
