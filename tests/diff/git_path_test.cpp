// SPDX-License-Identifier: Apache-2.0
#include "diff/git_path.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::diff;
using Names = std::pair<std::string, std::string>;

namespace {
std::string unquoted(std::string_view text) {
  auto name = unquote_c_path(text);
  if (!name) FAIL(name.error());
  CHECK(name->length == text.size());
  return name->name;
}
Names split(std::string_view text) {
  auto names = split_git_names(text);
  if (!names) FAIL(names.error());
  return *names;
}
}  // namespace

TEST_CASE("diff: C-quoted names are unquoted byte for byte") {
  CHECK(unquoted("\"a/t\\303\\251st.cu\"") == "a/t\xc3\xa9st.cu");
  CHECK(unquoted("\"tab\\there\"") == "tab\there");
  CHECK(unquoted("\"nl\\nq\\\"bs\\\\\"") == "nl\nq\"bs\\");
  CHECK(unquoted("\"\\a\\b\\v\\f\\r\"") == "\a\b\v\f\r");
  CHECK(unquoted("\"\\000\\377\"") == std::string("\0\xff", 2));
  CHECK(unquoted("\"\"").empty());
  SECTION("the length covers the quotes only, not what follows") {
    auto name = unquote_c_path("\"a b\" rest");
    REQUIRE(name.has_value());
    CHECK(name->name == "a b");
    CHECK(name->length == 5);
  }
  SECTION("malformed quoting is refused with a reason") {
    CHECK(unquote_c_path("\"open").error() == "a quoted name has no closing '\"'");
    CHECK(unquote_c_path("\"ends in \\").error() == "a quoted name has no closing '\"'");
    CHECK(unquote_c_path("\"\\q\"").error() == "unknown escape '\\q' in a quoted name");
    CHECK(unquote_c_path("\"\\400\"").error() == "unknown escape '\\4' in a quoted name");
    CHECK(unquote_c_path("\"\\38\"").error() == "unknown escape '\\3' in a quoted name");
    CHECK(unquote_c_path("bare").error() == "a quoted name must start with '\"'");
  }
}

TEST_CASE("diff: '---'/'+++' fields drop GNU diff's timestamp and git's trailing tab") {
  CHECK(parse_path_field("old/k.cu\t2026-01-01 00:00:00.000000000 +0000").value() == "old/k.cu");
  CHECK(parse_path_field("a/x y.cu\t").value() == "a/x y.cu");
  CHECK(parse_path_field("a/x y.cu").value() == "a/x y.cu");
  CHECK(parse_path_field("\"a/t\\303\\251st.cu\"\t2026").value() == "a/t\xc3\xa9st.cu");
  CHECK(parse_path_field("").error() == "the file name is missing");
  CHECK(parse_path_field("\t2026").error() == "the file name is missing");
  CHECK(parse_path_field("\"\"").error() == "the file name is empty");
}

TEST_CASE("diff: the two names of a 'diff --git' line") {
  CHECK(split("a/k.cu b/k.cu") == Names{"a/k.cu", "b/k.cu"});
  SECTION("names with spaces split where both name the same path") {
    CHECK(split("a/dir with space/x y.cu b/dir with space/x y.cu") ==
          Names{"a/dir with space/x y.cu", "b/dir with space/x y.cu"});
    CHECK(split("a/x b/x b/x b/x") == Names{"a/x b/x", "b/x b/x"});
  }
  SECTION("git --no-prefix writes the same name twice") { CHECK(split("x y.cu x y.cu") == Names{"x y.cu", "x y.cu"}); }
  SECTION("quoted names, on both sides or only on one") {
    CHECK(split("\"a/t\\303\\251st.cu\" \"b/t\\303\\251st.cu\"") == Names{"a/t\xc3\xa9st.cu", "b/t\xc3\xa9st.cu"});
    CHECK(split("\"a/t\\303\\251\" b/plain") == Names{"a/t\xc3\xa9", "b/plain"});
    CHECK(split("a/plain x \"b/t\\303\\251\"") == Names{"a/plain x", "b/t\xc3\xa9"});
    CHECK(split("a/p \"b/ends in space \"") == Names{"a/p", "b/ends in space "});
  }
  SECTION("two different names with one space split there") {
    CHECK(split("a/old.cu b/new.cu") == Names{"a/old.cu", "b/new.cu"});
  }
  SECTION("what cannot be split is refused") {
    CHECK(split_git_names("garbage").error() == "cannot tell where the old name ends and the new one starts");
    CHECK(split_git_names("a/x y b/z w").error() == "cannot tell where the old name ends and the new one starts");
    CHECK(split_git_names("\"a/x\"b/x").error() == "expected a space after the old name");
    CHECK(split_git_names("a/x b/\\q\"").error() == "cannot find where the quoted new name starts");
    CHECK(split_git_names("").error() == "cannot tell where the old name ends and the new one starts");
  }
}

TEST_CASE("diff: the path two names share, and a lone name's prefix") {
  CHECK(shared_path("a/src/k.cu", "b/src/k.cu") == "src/k.cu");
  CHECK(shared_path("i/k.cu", "w/k.cu") == "k.cu");
  CHECK(shared_path("old/k.cu", "new/k.cu") == "k.cu");
  CHECK(shared_path("k.cu", "k.cu") == "k.cu");
  CHECK_FALSE(shared_path("a/x", "b/y").has_value());
  CHECK_FALSE(shared_path("a/", "b/").has_value());
  CHECK_FALSE(shared_path("x", "y").has_value());
  CHECK_FALSE(shared_path("", "").has_value());
  CHECK(strip_lone_prefix("a/k.cu", Side::old_version) == "k.cu");
  CHECK(strip_lone_prefix("b/k.cu", Side::new_version) == "k.cu");
  CHECK(strip_lone_prefix("b/k.cu", Side::old_version) == "b/k.cu");
  CHECK(strip_lone_prefix("src/k.cu", Side::new_version) == "src/k.cu");
  CHECK(strip_lone_prefix("a/", Side::old_version) == "a/");
}
