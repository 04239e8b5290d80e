// SPDX-License-Identifier: Apache-2.0
// parse_cmake_script: CMake's language read into commands, as untrusted input.
#include "context/cmake_script.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::context;
using Kind = CMakeArgument::Kind;

TEST_CASE("cmake script: commands, their lines and their kinds of argument") {
  auto commands = parse_cmake_script(
      "# a comment\n"
      "SET(FLAGS \"-DA=1 -DB\" ${X} [=[raw ${Y}]=]) # trailing\n"
      "#[[ a bracket\n comment ]]\n"
      "if (NOT (A AND B))\n"
      "endif()\n");
  REQUIRE(commands);
  REQUIRE(commands->size() == 3);
  const auto& set = (*commands)[0];
  CHECK(set.name == "set");
  CHECK(set.line == 2);
  REQUIRE(set.arguments.size() == 4);
  CHECK(set.arguments[1].text == "-DA=1 -DB");
  CHECK(set.arguments[1].kind == Kind::quoted);
  CHECK(set.arguments[2].text == "${X}");
  CHECK(set.arguments[2].kind == Kind::unquoted);
  CHECK(set.arguments[3].text == "raw ${Y}");
  CHECK(set.arguments[3].kind == Kind::bracket);
  const auto& condition = (*commands)[1];
  CHECK(condition.line == 5);
  std::vector<std::string> words;
  for (const auto& argument : condition.arguments) words.push_back(argument.text);
  CHECK(words == std::vector<std::string>{"NOT", "(", "A", "AND", "B", ")"});
  CHECK((*commands)[2].name == "endif");
}

TEST_CASE("cmake script: escapes and line continuations in a quoted argument, a legacy quote in an unquoted one") {
  auto commands = parse_cmake_script("set(X \"a\\\"b\\\nc\" -DNAME=\"x y\")\n");
  REQUIRE(commands);
  REQUIRE((*commands)[0].arguments.size() == 3);
  CHECK((*commands)[0].arguments[1].text == "a\"bc");
  CHECK((*commands)[0].arguments[2].text == "-DNAME=\"x y\"");
}

TEST_CASE("cmake script: malformed text is an error naming the line") {
  SECTION("an unterminated quoted argument") {
    auto commands = parse_cmake_script("set(A 1)\nset(X \"open\n");
    REQUIRE_FALSE(commands);
    CHECK(commands.error().starts_with("line "));
    CHECK(commands.error().find("unterminated quoted argument") != std::string::npos);
  }
  SECTION("an unterminated argument list") { CHECK_FALSE(parse_cmake_script("set(A (1)\n")); }
  SECTION("a command without parentheses") {
    auto commands = parse_cmake_script("\n\nproject tcnn\n");
    REQUIRE_FALSE(commands);
    CHECK(commands.error() == "line 3: 'project' without '('");
  }
  SECTION("an unterminated bracket comment") { CHECK_FALSE(parse_cmake_script("#[==[ never closed ]]\n")); }
  SECTION("text that is not CMake") {
    CHECK_FALSE(parse_cmake_script("{\"json\": true}"));
    CHECK_FALSE(parse_cmake_script(std::string("set(A \0 B)", 10) + "\x01"));
  }
}

TEST_CASE("cmake script: an empty file has no commands") {
  auto commands = parse_cmake_script("  \n# only a comment\n");
  REQUIRE(commands);
  CHECK(commands->empty());
}
