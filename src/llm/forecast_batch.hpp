// SPDX-License-Identifier: Apache-2.0
#pragma once

// Forecasting many kernels at once: cached forecasts first, the rest sent concurrently (at most
// `concurrency` requests in flight), results in input order.

#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "llm/forecast_cache.hpp"
#include "llm/forecast_client.hpp"

namespace kforecast::llm {

struct BatchOptions {
  int concurrency = 4;
  const ForecastCache* cache = nullptr;  // nullptr: no cache
  // Called (from any thread, one call at a time) as forecasts finish, and once with done == total.
  std::function<void(std::size_t done, std::size_t total)> progress = {};
};

std::vector<ForecastOutcome> forecast_all(ForecastClient& client, std::span<const PromptMessages> prompts,
                                          const BatchOptions& options);

}  // namespace kforecast::llm
