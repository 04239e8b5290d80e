// SPDX-License-Identifier: Apache-2.0
#pragma once

// LLM forecasts kept on disk, so re-running the same pull request sends nothing. The key covers
// everything that shapes an answer: the rendered prompt (so the reference and candidate text,
// the hardware, the compiler facts), the prompt set's version, the model and the sampling
// settings. Only forecasts are stored, never failures (a failed endpoint must be retried next
// run), and never a request or a header: no key can reach the cache. Entries are written to a
// temporary name and renamed, so concurrent writers never leave a torn file; an unreadable or
// corrupt entry is a miss, and a cache that cannot be written is skipped.

#include <filesystem>
#include <optional>
#include <string>

#include "base/environment.hpp"
#include "llm/forecast_client.hpp"

namespace kforecast::llm {

class ForecastCache {
 public:
  explicit ForecastCache(std::filesystem::path directory) : m_directory(std::move(directory)) {}

  // 32 hex digits.
  static std::string key(const PromptMessages& messages, const EndpointSettings& settings,
                         std::string_view prompt_version);

  std::optional<LlmForecast> find(const std::string& key) const;
  void store(const std::string& key, const LlmForecast& forecast) const;

  const std::filesystem::path& directory() const { return m_directory; }

 private:
  std::filesystem::path m_directory;
};

// $XDG_CACHE_HOME/kforecast/llm, else $HOME/.cache/kforecast/llm, else nullopt.
std::optional<std::filesystem::path> default_forecast_cache_directory(const EnvLookup& env);

}  // namespace kforecast::llm
