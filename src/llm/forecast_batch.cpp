// SPDX-License-Identifier: Apache-2.0
#include "llm/forecast_batch.hpp"

#include <atomic>
#include <mutex>
#include <thread>

namespace kforecast::llm {

std::vector<ForecastOutcome> forecast_all(ForecastClient& client, std::span<const PromptMessages> prompts,
                                          const BatchOptions& options) {
  std::vector<ForecastOutcome> results(prompts.size(), std::unexpected(ForecastFailure{"not forecast", 0}));
  std::vector<std::string> keys(prompts.size());
  std::vector<std::size_t> pending;
  for (std::size_t i = 0; i < prompts.size(); ++i) {
    if (options.cache != nullptr) {
      keys[i] = ForecastCache::key(prompts[i], client.settings(), client.prompts().version);
      if (auto cached = options.cache->find(keys[i])) {
        results[i] = std::move(*cached);
        continue;
      }
    }
    pending.push_back(i);
  }

  std::mutex progress_mutex;
  std::size_t done = prompts.size() - pending.size();
  auto report = [&] {
    if (!options.progress) return;
    std::lock_guard lock(progress_mutex);
    options.progress(done, prompts.size());
  };
  if (!pending.empty()) report();

  std::atomic<std::size_t> next{0};
  auto worker = [&] {
    for (std::size_t n = next++; n < pending.size(); n = next++) {
      const std::size_t i = pending[n];
      results[i] = client.forecast(prompts[i]);
      if (results[i] && options.cache != nullptr) options.cache->store(keys[i], *results[i]);
      {
        std::lock_guard lock(progress_mutex);
        ++done;
        if (options.progress) options.progress(done, prompts.size());
      }
    }
  };
  const std::size_t threads = std::min<std::size_t>(std::max(1, options.concurrency), pending.size());
  std::vector<std::jthread> workers;
  for (std::size_t t = 1; t < threads; ++t) workers.emplace_back(worker);
  if (threads > 0) worker();
  workers.clear();  // joins
  if (pending.empty() && options.progress) report();
  return results;
}

}  // namespace kforecast::llm
