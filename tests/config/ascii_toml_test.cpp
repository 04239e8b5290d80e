// SPDX-License-Identifier: Apache-2.0
#include "config/ascii_toml.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::config;

namespace {
std::string ascii(std::string_view text) {
  auto result = to_ascii_toml(text);
  REQUIRE(result.has_value());
  return *result;
}
NonAsciiProblem problem(std::string_view text) {
  auto result = to_ascii_toml(text);
  REQUIRE_FALSE(result.has_value());
  return result.error();
}
}  // namespace

TEST_CASE("config: ASCII documents pass through unchanged") {
  const std::string_view document = "[a]\nb = \"x\\\"y # z\" # c\nd = 'e\\f'\ng = \"\"\"h\n'i'\"\"\"\nj = '''k\nl'''\n";
  CHECK(ascii(document) == document);
  CHECK(ascii("").empty());
}

TEST_CASE("config: non-ASCII text becomes escapes in strings and '?' in comments") {
  CHECK(ascii("k = \"\xcf\xbc\"") == "k = \"\\u03FC\"");
  CHECK(ascii("k = \"\xf0\x9f\x98\x80\"") == "k = \"\\U0001F600\"");
  CHECK(ascii("# d\xc3\xa9j\xc3\xa0\n") == "# d?j?\n");
  SECTION("a literal string with non-ASCII text becomes a basic string, escaping \\ and \"") {
    CHECK(ascii("k = 'C:\\x\"\xc2\xa7'") == "k = \"C:\\\\x\\\"\\u00A7\"");
    CHECK(ascii("k = 'C:\\x'") == "k = 'C:\\x'");
  }
  SECTION("quoted keys too") { CHECK(ascii("\"\xc2\xa7\" = 1") == "\"\\u00A7\" = 1"); }
  SECTION("a '#' inside a string is not a comment") { CHECK(ascii("k = \"#\xc2\xa7\"") == "k = \"#\\u00A7\""); }
}

TEST_CASE("config: non-ASCII text elsewhere, and invalid UTF-8, are refused with a position") {
  auto bare = problem("[a]\nk\xc2\xa7 = 1\n");
  CHECK(bare.where.line == 2);
  CHECK(bare.where.column == 2);
  CHECK(bare.what == "non-ASCII text outside a comment or a one-line string");
  auto multiline = problem("k = \"\"\"\\\n\xc2\xa7\"\"\"\n");
  CHECK(multiline.where.line == 2);
  CHECK(multiline.where.column == 1);
  CHECK(problem("k = '''\xc2\xa7'''").what == "non-ASCII text outside a comment or a one-line string");
  SECTION("invalid UTF-8 in a string: overlong, surrogate, truncated, stray continuation") {
    CHECK(problem("k = \"\xc0\xaf\"").what == "invalid UTF-8");
    CHECK(problem("k = \"\xed\xa0\x80\"").what == "invalid UTF-8");
    CHECK(problem("k = \"\xe2\x80").what == "invalid UTF-8");
    CHECK(problem("# \x80").what == "invalid UTF-8");
  }
}
