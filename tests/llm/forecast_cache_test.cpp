// SPDX-License-Identifier: Apache-2.0
#include "llm/forecast_cache.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

using namespace kforecast::llm;
namespace fs = std::filesystem;

namespace {

fs::path scratch() {
  auto dir = fs::temp_directory_path() / ("kf_llm_cache_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  return dir;
}

LlmForecast sample() {
  LlmForecast forecast;
  const std::array<double, 8> raw{0, 0, 0.1, 0.2, 0.4, 0.2, 0.1, 0.1};
  forecast.distribution = *kforecast::forecast::BinDistribution::from_raw(raw, 0.25);
  forecast.rationale = "fewer \"loads\"\nper thread";
  forecast.stated_bin = kforecast::forecast::SpeedupBin::minor_speedup;
  forecast.model = "m";
  forecast.prompt_version = "v1";
  forecast.method = "json_schema (content)";
  forecast.notes = {"the model's probabilities summed to 1.1; renormalised"};
  forecast.requests = 2;
  return forecast;
}

}  // namespace

TEST_CASE("llm cache: a stored forecast comes back whole, from the cache") {
  const ForecastCache cache(scratch());
  const std::string key = ForecastCache::key({"s", "u"}, EndpointSettings{}, "v1");
  CHECK(key.size() == 32);
  CHECK_FALSE(cache.find(key));
  cache.store(key, sample());
  auto found = cache.find(key);
  REQUIRE(found);
  CHECK(found->from_cache);
  CHECK(found->requests == 0);
  for (std::size_t i = 0; i < 8; ++i)
    CHECK(found->distribution.probabilities()[i] == Approx(sample().distribution.probabilities()[i]).epsilon(1e-15));
  CHECK(found->distribution.raw_sum() == Approx(1.0));
  CHECK(found->rationale == sample().rationale);
  CHECK(found->stated_bin == sample().stated_bin);
  CHECK(found->method == sample().method);
  CHECK(found->notes == sample().notes);
  fs::remove_all(cache.directory());
}

TEST_CASE("llm cache: the key covers prompt, model, prompt version and sampling") {
  EndpointSettings settings;
  settings.model = "a";
  const std::string base = ForecastCache::key({"s", "u"}, settings, "v1");
  CHECK(ForecastCache::key({"s", "u"}, settings, "v1") == base);
  CHECK(ForecastCache::key({"s", "u2"}, settings, "v1") != base);
  CHECK(ForecastCache::key({"s2", "u"}, settings, "v1") != base);
  CHECK(ForecastCache::key({"s", "u"}, settings, "v2") != base);
  auto other = settings;
  other.model = "b";
  CHECK(ForecastCache::key({"s", "u"}, other, "v1") != base);
  other = settings;
  other.temperature = 0.7;
  CHECK(ForecastCache::key({"s", "u"}, other, "v1") != base);
  other = settings;
  other.samples = 3;
  CHECK(ForecastCache::key({"s", "u"}, other, "v1") != base);
  // Secrets and the URL are not part of the key: the same prompt to the same model is the same answer.
  other = settings;
  other.api_key = "k";
  CHECK(ForecastCache::key({"s", "u"}, other, "v1") == base);
}

TEST_CASE("llm cache: a corrupt entry is a miss, never a crash") {
  const ForecastCache cache(scratch());
  fs::create_directories(cache.directory());
  for (const char* text :
       {"", "{", "[]", R"({"format":1,"probabilities":[1,2]})", R"({"format":1,"probabilities":[0,0,0,0,0,0,0,-1]})",
        R"({"format":2,"probabilities":[0,0,0,0,1,0,0,0]})"}) {
    std::ofstream(cache.directory() / "k.json", std::ios::trunc) << text;
    CHECK_FALSE(cache.find("k"));
  }
  fs::remove_all(cache.directory());
}

TEST_CASE("llm cache: the default directory follows XDG") {
  using kforecast::fixed_environment;
  CHECK(default_forecast_cache_directory(fixed_environment({{"XDG_CACHE_HOME", "/x"}, {"HOME", "/h"}})) ==
        fs::path("/x/kforecast/llm"));
  CHECK(default_forecast_cache_directory(fixed_environment({{"HOME", "/h"}})) == fs::path("/h/.cache/kforecast/llm"));
  CHECK_FALSE(default_forecast_cache_directory(fixed_environment({})));
}
