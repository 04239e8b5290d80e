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

TEST_CASE("config: the compile context keys, with their types and defaults") {
  using enum ValueType;
  const auto check_key = [](std::string_view name, ValueType type, std::string_view default_text) {
    INFO(name);
    const KeySpec* spec = find_key(name);
    REQUIRE(spec != nullptr);
    CHECK(spec->type == type);
    CHECK(spec->default_text == default_text);
    CHECK(spec->planned.empty());
  };
  check_key("compile.database", string, "\"\"");
  check_key("compile.include_dirs", string_list, "[]");
  check_key("compile.defines", string_list, "[]");
  check_key("compile.flags", string_list, "[]");
  check_key("compile.budget_seconds", number, "600");
  check_key("compile.jobs", integer, "0");
  check_key("cuda.nvcc", string, "\"\"");
  CHECK(find_table_array("compile.paths") != nullptr);
  CHECK(check_bounds(*find_key("compile.jobs"), Value{std::int64_t{-1}}) != "");
  CHECK(check_bounds(*find_key("compile.budget_seconds"), Value{0.0}) != "");
}
