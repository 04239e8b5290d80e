// SPDX-License-Identifier: Apache-2.0
// Parsing untrusted JSON: nesting deeper than the bound is an error, not a stack overflow (a
// hostile plan or capture of a million '['); parse errors say where; typed reads never throw.
#include "base/json_document.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace kforecast;
using Catch::Matchers::Contains;

namespace {
std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }
}  // namespace

TEST_CASE("json document: nesting up to the bound parses, one level deeper is an error") {
  CHECK(json_document::parse(nested(json_document::max_depth)).has_value());
  const auto deeper = json_document::parse(nested(json_document::max_depth + 1));
  REQUIRE_FALSE(deeper.has_value());
  CHECK_THAT(deeper.error(), Contains("nested deeper than 256 levels (byte 256)"));
  CHECK_FALSE(json_document::parse(R"({"a":)" + nested(400) + "}").has_value());
}

TEST_CASE("json document: a million open brackets is an error, not a crash") {
  const auto hostile = json_document::parse(std::string(1'000'000, '['));
  REQUIRE_FALSE(hostile.has_value());
  CHECK_THAT(hostile.error(), Contains("nested deeper than"));
  std::string objects;
  for (int i = 0; i < 100'000; ++i) objects += R"({"a":)";
  CHECK_FALSE(json_document::parse(objects).has_value());
}

TEST_CASE("json document: brackets inside strings do not count as nesting") {
  const std::string text = R"({"s": ")" + std::string(1000, '[') + R"(\"[[", "t": [1]})";
  const auto parsed = json_document::parse(text);
  REQUIRE(parsed.has_value());
  CHECK(json_document::string_at(*parsed, "s")->size() == 1003);
}

TEST_CASE("json document: a syntax error says where, without the library's prefix") {
  const auto broken = json_document::parse("{\"a\": tru}");
  REQUIRE_FALSE(broken.has_value());
  CHECK_THAT(broken.error(), Contains("line 1, column"));
  CHECK_THAT(broken.error(), !Contains("[json.exception"));
  CHECK_FALSE(json_document::parse("").has_value());
  CHECK_FALSE(json_document::parse("{} trailing").has_value());
  CHECK_FALSE(json_document::parse("\"\xff\"").has_value());  // not UTF-8
}

TEST_CASE("json document: typed reads check the type and never throw") {
  const auto parsed = json_document::parse(
      R"({"s": "x", "n": -3, "u": 18446744073709551615, "d": 1.5, "b": true, "o": {"k": [10, 20]}, "z": null})");
  REQUIRE(parsed.has_value());
  const Json& doc = *parsed;
  CHECK(*json_document::string_at(doc, "s") == "x");
  CHECK(json_document::string_at(doc, "n") == nullptr);
  CHECK(json_document::int64_at(doc, "n") == -3);
  CHECK_FALSE(json_document::int64_at(doc, "u").has_value());  // does not fit
  CHECK(json_document::uint64_at(doc, "u") == 18446744073709551615ULL);
  CHECK_FALSE(json_document::uint64_at(doc, "n").has_value());
  CHECK_FALSE(json_document::int64_at(doc, "d").has_value());  // 1.5 is no integer
  CHECK(json_document::number_at(doc, "n") == -3.0);
  CHECK(json_document::bool_at(doc, "b") == true);
  CHECK(json_document::find(doc, "missing") == nullptr);
  CHECK(json_document::find(*json_document::find(doc, "s"), "k") == nullptr);  // not an object
  REQUIRE(json_document::at_pointer(doc, "/o/k/1") != nullptr);
  CHECK(*json_document::at_pointer(doc, "/o/k/1") == 20);
  CHECK(json_document::at_pointer(doc, "/o/k/2") == nullptr);
  CHECK(json_document::at_pointer(doc, "/o/x") == nullptr);
  CHECK(json_document::kind_name(*json_document::find(doc, "z")) == "null");
  CHECK(json_document::compact(*json_document::find(doc, "o")) == R"({"k":[10,20]})");
}
