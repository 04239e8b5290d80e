// SPDX-License-Identifier: Apache-2.0
#include "llm/forecast_cache.hpp"

#include <unistd.h>

#include <simdjson.h>

#include <atomic>
#include <fstream>
#include <iterator>

#include <fmt/format.h>

#include "base/content_hash.hpp"
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
  simdjson::dom::parser parser;
  simdjson::dom::object entry;
  if (parser.parse(text).get_object().get(entry) != simdjson::SUCCESS) return std::nullopt;
  std::int64_t format = 0;
  if (entry["format"].get_int64().get(format) != simdjson::SUCCESS || format != 1) return std::nullopt;
  simdjson::dom::array list;
  if (entry["probabilities"].get_array().get(list) != simdjson::SUCCESS || list.size() != forecast::bin_count)
    return std::nullopt;
  std::array<double, forecast::bin_count> probabilities{};
  std::size_t i = 0;
  for (simdjson::dom::element item : list)
    if (item.get_double().get(probabilities[i++]) != simdjson::SUCCESS) return std::nullopt;
  auto distribution = forecast::BinDistribution::from_raw(probabilities, 1e-6);
  if (!distribution) return std::nullopt;

  LlmForecast forecast;
  forecast.distribution = *distribution;
  forecast.from_cache = true;
  forecast.requests = 0;
  std::string_view text_value;
  if (entry["model"].get_string().get(text_value) == simdjson::SUCCESS) forecast.model = text_value;
  if (entry["prompt_version"].get_string().get(text_value) == simdjson::SUCCESS) forecast.prompt_version = text_value;
  if (entry["method"].get_string().get(text_value) == simdjson::SUCCESS) forecast.method = text_value;
  if (entry["rationale"].get_string().get(text_value) == simdjson::SUCCESS) forecast.rationale = text_value;
  std::int64_t number = 0;
  if (entry["samples"].get_int64().get(number) == simdjson::SUCCESS) forecast.samples = static_cast<int>(number);
  if (entry["stated_bin"].get_int64().get(number) == simdjson::SUCCESS && number >= 1 && number <= 8)
    forecast.stated_bin = static_cast<forecast::SpeedupBin>(number);
  simdjson::dom::array notes;
  if (entry["notes"].get_array().get(notes) == simdjson::SUCCESS)
    for (simdjson::dom::element note : notes)
      if (note.get_string().get(text_value) == simdjson::SUCCESS) forecast.notes.emplace_back(text_value);
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

std::optional<std::filesystem::path> default_forecast_cache_directory(const EnvLookup& env) {
  if (auto xdg = env("XDG_CACHE_HOME"); xdg && !xdg->empty()) return std::filesystem::path(*xdg) / "kforecast/llm";
  if (auto home = env("HOME"); home && !home->empty()) return std::filesystem::path(*home) / ".cache/kforecast/llm";
  return std::nullopt;
}

}  // namespace kforecast::llm
