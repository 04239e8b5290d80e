// SPDX-License-Identifier: Apache-2.0
#include "llm/forecast_cache.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <iterator>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/content_hash.hpp"
#include "base/json_document.hpp"
#include "base/json_string.hpp"
#include "base/redaction.hpp"

namespace kforecast::llm {

std::string ForecastCache::key(const PromptMessages& messages, const EndpointSettings& settings,
                               std::string_view prompt_version) {
  ContentHasher hasher;
  hasher.add("kforecast-llm-forecast-1");
  hasher.add(prompt_version);
  hasher.add(settings.model);
  hasher.add(fmt::format("temperature={} max_tokens={} samples={}", settings.temperature, settings.max_tokens,
                         settings.samples));
  hasher.add(messages.system);
  hasher.add(messages.user);
  return hasher.hex();
}

std::optional<LlmForecast> ForecastCache::find(const std::string& key) const {
  std::ifstream in(m_directory / (key + ".json"), std::ios::binary);
  if (!in) return std::nullopt;
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const auto document = json_document::parse(text);
  if (!document || !document->is_object()) return std::nullopt;
  const Json& entry = *document;
  if (json_document::int64_at(entry, "format") != 1) return std::nullopt;
  const Json* list = json_document::array_at(entry, "probabilities");
  if (list == nullptr || list->size() != forecast::bin_count) return std::nullopt;
  std::array<double, forecast::bin_count> probabilities{};
  std::size_t i = 0;
  for (const Json& item : *list) {
    if (!item.is_number()) return std::nullopt;
    probabilities[i++] = item.get<double>();
  }
  auto distribution = forecast::BinDistribution::from_raw(probabilities, 1e-6);
  if (!distribution) return std::nullopt;

  LlmForecast forecast;
  forecast.distribution = *distribution;
  forecast.from_cache = true;
  forecast.requests = 0;
  for (const auto& [name, field] :
       {std::pair{"model", &forecast.model}, std::pair{"prompt_version", &forecast.prompt_version},
        std::pair{"method", &forecast.method}, std::pair{"rationale", &forecast.rationale}})
    if (const std::string* text_value = json_document::string_at(entry, name)) *field = *text_value;
  if (const auto samples = json_document::int64_at(entry, "samples")) forecast.samples = static_cast<int>(*samples);
  if (const auto stated = json_document::int64_at(entry, "stated_bin"); stated && *stated >= 1 && *stated <= 8)
    forecast.stated_bin = static_cast<forecast::SpeedupBin>(*stated);
  if (const Json* notes = json_document::array_at(entry, "notes"))
    for (const Json& note : *notes)
      if (note.is_string()) forecast.notes.push_back(note.get<std::string>());
  return forecast;
}

void ForecastCache::store(const std::string& key, const LlmForecast& forecast) const {
  std::string notes;
  for (const auto& note : forecast.notes) notes += (notes.empty() ? "" : ",") + json_string(note);
  const std::string text = fmt::format(
      "{{\"format\":1,\"model\":{},\"prompt_version\":{},\"method\":{},\"probabilities\":[{:.17g}],"
      "\"raw_sum\":{:.17g},\"stated_bin\":{},\"samples\":{},\"rationale\":{},\"notes\":[{}]}}\n",
      json_string(forecast.model), json_string(forecast.prompt_version), json_string(forecast.method),
      fmt::join(forecast.distribution.probabilities(), ","), forecast.distribution.raw_sum(),
      forecast.stated_bin ? std::to_string(forecast::bin_number(*forecast.stated_bin)) : "null", forecast.samples,
      json_string(forecast.rationale), notes);
  std::error_code ec;
  std::filesystem::create_directories(m_directory, ec);
  static std::atomic<unsigned> sequence{0};
  const auto final_path = m_directory / (key + ".json");
  const auto temporary = m_directory / fmt::format("{}.{}.{}.tmp", key, ::getpid(), sequence++);
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!(out << redact_secrets(text))) {
      out.close();
      std::filesystem::remove(temporary, ec);
      return;
    }
  }
  std::filesystem::rename(temporary, final_path, ec);
  if (ec) std::filesystem::remove(temporary, ec);
}

std::optional<std::filesystem::path> default_forecast_cache_directory(const EnvLookup& env) { return kforecast_cache_directory(env, "llm"); }

}  // namespace kforecast::llm
