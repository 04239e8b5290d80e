// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "config/config.hpp"

using namespace kforecast;
using namespace kforecast::config;
using Catch::Matchers::Contains;

TEST_CASE("config: environment variables override the file") {
  auto from_file = parse_config("[cuda]\nnvrtc_library = \"/file/nvrtc.so\"\n", "c.toml");
  REQUIRE(from_file.has_value());
  auto config = apply_environment(*from_file, fixed_environment({{"KFORECAST_NVRTC_LIBRARY", "/env/nvrtc.so"}}));
  REQUIRE(config.has_value());
  const Setting& setting = config->setting("cuda.nvrtc_library");
  CHECK(std::get<std::string>(setting.value) == "/env/nvrtc.so");
  CHECK(setting.source == Source::environment);
  CHECK(setting.origin == "KFORECAST_NVRTC_LIBRARY");
}

TEST_CASE("config: an empty variable counts as unset") {
  auto config =
      apply_environment(Config{}, fixed_environment({{"KFORECAST_NVRTC_LIBRARY", ""}, {"KFORECAST_ENDPOINT", ""}}));
  REQUIRE(config.has_value());
  CHECK(config->setting("cuda.nvrtc_library").source == Source::default_value);
}

TEST_CASE("config: the LLM endpoint variables override their keys") {
  auto config = apply_environment(Config{}, fixed_environment({{"KFORECAST_ENDPOINT", "http://127.0.0.1:1/v1"},
                                                               {"KFORECAST_MODEL", "qwen"},
                                                               {"KFORECAST_FORECASTER", "llm"}}));
  REQUIRE(config.has_value());
  CHECK(config->string_value("endpoint.url") == "http://127.0.0.1:1/v1");
  CHECK(config->string_value("endpoint.model") == "qwen");
  CHECK(config->setting("forecast.forecaster").origin == "KFORECAST_FORECASTER");
  auto bad = apply_environment(Config{}, fixed_environment({{"KFORECAST_FORECASTER", "gpt"}}));
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().exit_code == ExitCode::usage);
  CHECK_THAT(bad.error().message, Contains("KFORECAST_FORECASTER"));
}

TEST_CASE("config: unrelated variables are ignored") {
  auto config = apply_environment(Config{}, fixed_environment({{"PATH", "/bin"}, {"KFORECAST_API_KEY", "sk-secret"}}));
  REQUIRE(config.has_value());
  for (const auto& [name, setting] : config->settings()) CHECK(setting.source == Source::default_value);
}
