// SPDX-License-Identifier: Apache-2.0
#include <array>
#include <cmath>

#include <catch2/catch.hpp>

#include "config/value_text.hpp"

using namespace kforecast::config;
using Catch::Matchers::Contains;

namespace {
constexpr std::array<std::string_view, 2> actions{"warn", "fail"};
const KeySpec probability{"t.p", ValueType::number, "0.5", "", "", 0.0, 1.0};
const KeySpec count{"t.n", ValueType::integer, "4", "", "", 1.0, 64.0};
const KeySpec flag{"t.f", ValueType::boolean, "false", "", ""};
const KeySpec words{"t.w", ValueType::string_list, "[]", "", ""};
const KeySpec action{"t.a", ValueType::choice, "\"warn\"", "", "", {}, {}, actions};
}  // namespace

TEST_CASE("config: defaults parse from the key table's TOML text") {
  CHECK(std::get<double>(parse_default(probability)) == 0.5);
  CHECK(std::get<std::int64_t>(parse_default(count)) == 4);
  CHECK(std::get<bool>(parse_default(flag)) == false);
  CHECK(std::get<std::vector<std::string>>(parse_default(words)).empty());
  CHECK(std::get<std::string>(parse_default(action)) == "warn");
  SECTION("a bad row is a programming error") {
    const KeySpec broken{"t.b", ValueType::integer, "four", "", ""};
    CHECK_THROWS_AS(parse_default(broken), kforecast::Fatal);
  }
}

TEST_CASE("config: environment text is parsed by type") {
  CHECK(std::get<double>(*parse_plain_text(probability, "0.25")) == 0.25);
  CHECK(std::get<std::int64_t>(*parse_plain_text(count, "16")) == 16);
  CHECK(std::get<bool>(*parse_plain_text(flag, "1")) == true);
  CHECK(std::get<bool>(*parse_plain_text(flag, "no")) == false);
  CHECK(std::get<std::vector<std::string>>(*parse_plain_text(words, "a,b,,c")) ==
        std::vector<std::string>{"a", "b", "c"});
  CHECK(std::get<std::string>(*parse_plain_text(action, "fail")) == "fail");
  SECTION("rejections say what was expected") {
    CHECK_THAT(parse_plain_text(count, "16x").error().message, Contains("expected an integer between 1 and 64"));
    CHECK_THAT(parse_plain_text(probability, "nan").error().message, Contains("expected a number"));
    CHECK_THAT(parse_plain_text(probability, "1.5").error().message, Contains("between 0 and 1, got 1.5"));
    CHECK_THAT(parse_plain_text(flag, "maybe").error().message, Contains("true or false"));
    CHECK_THAT(parse_plain_text(action, "explode").error().message, Contains("one of 'warn' or 'fail'"));
  }
}

TEST_CASE("config: bounds") {
  CHECK(check_bounds(probability, Value{0.0}).empty());
  CHECK(check_bounds(probability, Value{1.0}).empty());
  CHECK_THAT(check_bounds(probability, Value{-0.01}), Contains("got -0.01"));
  CHECK_THAT(check_bounds(count, Value{std::int64_t{0}}), Contains("between 1 and 64, got 0"));
  CHECK_THAT(check_bounds(probability, Value{std::nan("")}), Contains("finite"));
  CHECK(check_bounds(action, Value{std::string("fail")}).empty());
  CHECK_FALSE(check_bounds(action, Value{std::string("FAIL")}).empty());
}

TEST_CASE("config: values print as TOML literals") {
  CHECK(to_toml_literal(Value{true}) == "true");
  CHECK(to_toml_literal(Value{std::int64_t{-3}}) == "-3");
  CHECK(to_toml_literal(Value{2.0}) == "2.0");
  CHECK(to_toml_literal(Value{0.02}) == "0.02");
  CHECK(to_toml_literal(Value{std::string("a\"b\\c\n")}) == R"("a\"b\\c\n")");
  CHECK(to_toml_literal(Value{std::vector<std::string>{"x", "y"}}) == R"(["x", "y"])");
}
