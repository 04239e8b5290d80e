// SPDX-License-Identifier: Apache-2.0
#include <set>

#include <catch2/catch.hpp>

#include "config/config.hpp"
#include "config/value_text.hpp"

using namespace kforecast::config;

TEST_CASE("config: the key table is well formed") {
  std::set<std::string_view> names, variables;
  const auto sections = all_sections();
  for (const KeySpec& spec : all_keys()) {
    INFO(spec.name);
    CHECK(names.insert(spec.name).second);
    const auto dot = spec.name.find('.');
    REQUIRE(dot != std::string_view::npos);
    CHECK(std::ranges::find(sections, spec.name.substr(0, dot)) != sections.end());
    CHECK_FALSE(spec.help.empty());
    CHECK_NOTHROW(parse_default(spec));
    CHECK(check_bounds(spec, parse_default(spec)).empty());
    if (!spec.env.empty()) {
      CHECK(variables.insert(spec.env).second);
      CHECK(spec.env.starts_with("KFORECAST_"));
    }
  }
  CHECK(names.size() >= 15);
}

TEST_CASE("config: the design's environment variables exist") {
  CHECK(find_key("endpoint.url")->env == "KFORECAST_ENDPOINT");
  CHECK(find_key("endpoint.model")->env == "KFORECAST_MODEL");
  CHECK(find_key("forecast.forecaster")->env == "KFORECAST_FORECASTER");
  CHECK(std::get<std::string>(parse_default(*find_key("endpoint.api_key_env"))) == "KFORECAST_API_KEY");
  CHECK(find_key("no.such") == nullptr);
  CHECK(find_table_array("kernel") != nullptr);
}
