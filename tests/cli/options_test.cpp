// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "cli/options.hpp"

using namespace kforecast;
using namespace kforecast::cli;
using Catch::Matchers::Contains;

namespace {
Result<Invocation> parse(std::initializer_list<std::string> args) {
  const std::vector<std::string> list(args);
  return parse_arguments(*find_command("pr"), list);
}
}  // namespace

TEST_CASE("cli: options with values, flags and positionals") {
  auto invocation = parse({"--base", "main", "--head=feature", "--no-bench", "extra"});
  REQUIRE(invocation.has_value());
  CHECK(invocation->value("--base") == "main");
  CHECK(invocation->value("--head") == "feature");
  CHECK(invocation->has("--no-bench"));
  CHECK_FALSE(invocation->has("--post"));
  CHECK(invocation->positional == std::vector<std::string>{"extra"});
  SECTION("'--' ends options") {
    auto after = parse({"--", "--base"});
    REQUIRE(after.has_value());
    CHECK(after->positional == std::vector<std::string>{"--base"});
    CHECK_FALSE(after->has("--base"));
  }
  SECTION("a lone '-' is a positional (standard input)") {
    auto dash = parse({"-"});
    REQUIRE(dash.has_value());
    CHECK(dash->positional == std::vector<std::string>{"-"});
  }
  SECTION("-h and --help are accepted everywhere") {
    CHECK(parse({"-h"})->has("--help"));
    CHECK(parse({"--help"})->has("--help"));
  }
}

TEST_CASE("cli: option errors are usage errors that teach") {
  auto unknown = parse({"--bsae", "main"});
  REQUIRE_FALSE(unknown.has_value());
  CHECK(unknown.error().exit_code == ExitCode::usage);
  CHECK_THAT(unknown.error().message, Contains("unknown option '--bsae' for 'pr' (did you mean '--base'?)"));
  auto missing = parse({"--base"});
  REQUIRE_FALSE(missing.has_value());
  CHECK_THAT(missing.error().message, Contains("option '--base' needs a value (--base REV)"));
  auto flag_with_value = parse({"--post=yes"});
  REQUIRE_FALSE(flag_with_value.has_value());
  CHECK_THAT(flag_with_value.error().message, Contains("'--post' takes no value"));
}
