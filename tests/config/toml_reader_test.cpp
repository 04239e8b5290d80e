// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "config/config.hpp"

using namespace kforecast;
using namespace kforecast::config;
using Catch::Matchers::Contains;

namespace {
std::string error_of(std::string_view toml) {
  auto result = parse_config(toml, "repo/.kforecast.toml");
  REQUIRE_FALSE(result.has_value());
  CHECK(result.error().exit_code == ExitCode::usage);
  return result.error().message;
}
}  // namespace

TEST_CASE("config: a valid file sets values and records file:line") {
  auto config = parse_config("# comment\n[cuda]\nnvrtc_library = \"/opt/nvrtc.so\"\n", "repo/.kforecast.toml");
  REQUIRE(config.has_value());
  const Setting& setting = config->setting("cuda.nvrtc_library");
  CHECK(std::get<std::string>(setting.value) == "/opt/nvrtc.so");
  CHECK(setting.source == Source::file);
  CHECK(setting.origin == "repo/.kforecast.toml:3");
  SECTION("keys not in the file keep their defaults") {
    CHECK(config->setting("cuda.driver_library").source == Source::default_value);
    CHECK(config->string_value("cuda.driver_library").empty());
  }
}

TEST_CASE("config: non-ASCII text is fine in comments and one-line strings") {
  auto config = parse_config(
      "# d\xc3\xa9j\xc3\xa0 vu \xe2\x80\x94 \xcf\xbc\n[cuda]\nnvrtc_library = \"/opt/\xcf\xbc/n.so\" # \xcf\xbc\n"
      "driver_library = '/\xcf\xbc'\n",
      "x.toml");
  REQUIRE(config.has_value());
  CHECK(config->string_value("cuda.nvrtc_library") == "/opt/\xcf\xbc/n.so");
  CHECK(config->string_value("cuda.driver_library") == "/\xcf\xbc");
}

TEST_CASE("config: an empty file is valid") {
  auto config = parse_config("", "x.toml");
  REQUIRE(config.has_value());
  CHECK(config->setting("forecast.forecaster").source == Source::default_value);
}

TEST_CASE("config: unknown keys name file:line:column and suggest the nearest key") {
  SECTION("a typo in a section") {
    const auto message = error_of("[cuda]\nnvrtc_libary = \"x\"\n");
    CHECK_THAT(message, Contains("repo/.kforecast.toml:2:1:"));
    CHECK_THAT(message, Contains("unknown key 'cuda.nvrtc_libary'"));
    CHECK_THAT(message, Contains("did you mean 'cuda.nvrtc_library'?"));
  }
  SECTION("a key outside any section points to the section it belongs in") {
    const auto message = error_of("driver_library = \"x\"\n");
    CHECK_THAT(message, Contains(":1:1:"));
    CHECK_THAT(message, Contains("keys belong in a section"));
    CHECK_THAT(message, Contains("did you mean 'cuda.driver_library'?"));
  }
  SECTION("an unknown section") {
    const auto message = error_of("\n\n[polciy]\nx = 1\n");
    CHECK_THAT(message, Contains(":3:"));
    CHECK_THAT(message, Contains("unknown section '[polciy]'"));
    CHECK_THAT(message, Contains("did you mean 'policy'?"));
  }
  SECTION("an unknown section whose key belongs to another names that key") {
    // A submodule setting written where one might look for it: it is compile.submodules.
    const auto message = error_of("[context]\nsubmodules = \"fetch\"\n");
    CHECK_THAT(message, Contains("unknown section '[context]'"));
    CHECK_THAT(message, Contains("did you mean 'compile.submodules'?"));
  }
  SECTION("nothing plausible: no suggestion") {
    const auto message = error_of("[cuda]\nzzzzzzzzzzzz = 1\n");
    CHECK_THAT(message, Contains("unknown key 'cuda.zzzzzzzzzzzz'"));
    CHECK_THAT(message, !Contains("did you mean"));
  }
}

TEST_CASE("config: report.format takes the report writers' formats, and nothing else") {
  auto config = kforecast::config::parse_config("[report]\nformat = \"sarif\"\n", "c.toml");
  REQUIRE(config.has_value());
  CHECK(config->string_value("report.format") == "sarif");
  const auto message = error_of("[report]\nformat = \"xml\"\n");
  CHECK_THAT(message, Contains(":2:1:"));
  CHECK_THAT(message, Contains("report.format"));
  CHECK_THAT(message, Contains("md"));
}

TEST_CASE("config: [[kernel]] launch specs are accepted and kept for the benchmark to read") {
  constexpr std::string_view text = "[bench]\ntolerance = 0.03\n[[kernel]]\nname = \"sgemm\"\n";
  auto config = kforecast::config::parse_config(text, "c.toml");
  REQUIRE(config.has_value());
  CHECK(config->number_value("bench.tolerance") == 0.03);
  CHECK(config->source_text() == text);
  CHECK(config->source_name() == "c.toml");
}

TEST_CASE("config: compile keys and [[compile.paths]] tables in the compile section are accepted") {
  constexpr std::string_view text =
      "[compile]\ninclude_dirs = [\"include\"]\ndefines = [\"A=1\"]\nflags = [\"-O3\"]\njobs = 4\n"
      "[[compile.paths]]\nglob = \"dev/*\"\n[[compile.paths]]\nglob = \"src/*\"\n";
  auto config = kforecast::config::parse_config(text, "c.toml");
  REQUIRE(config.has_value());
  CHECK(std::get<std::vector<std::string>>(config->setting("compile.include_dirs").value) ==
        std::vector<std::string>{"include"});
  CHECK(config->integer_value("compile.jobs") == 4);
  CHECK(config->number_value("compile.budget_seconds") == 600);
}

TEST_CASE("config: compile.paths must be written as an array of tables") {
  CHECK_THAT(error_of("[compile]\npaths = [\"a\"]\n"),
             Contains("repo/.kforecast.toml:2:1: 'compile.paths' must be an array of tables: write [[compile.paths]]"));
  CHECK_THAT(error_of("[compile.paths]\nglob = \"a\"\n"), Contains("'compile.paths' must be an array of tables"));
  CHECK_THAT(error_of("[compile]\nflags = \"-O3\"\n"), Contains("key 'compile.flags' must be a list of strings"));
}

TEST_CASE("config: wrong types say what the key accepts") {
  const auto message = error_of("[cuda]\nnvrtc_library = 13\n");
  CHECK_THAT(message, Contains("key 'cuda.nvrtc_library' must be a string, got an integer"));
  SECTION("a section given as a value") {
    CHECK_THAT(error_of("cuda = 3\n"), Contains("'cuda' must be a section ([cuda]), got an integer"));
  }
  SECTION("a nested table inside a section") {
    CHECK_THAT(error_of("[cuda.extra]\nx = 1\n"), Contains(":1:7: unknown key 'cuda.extra'"));
  }
}

TEST_CASE("config: every problem is reported, one per line") {
  const auto message = error_of("[cuda]\nnvrtc_libary = \"x\"\ndriver_library = false\n[bogus]\n");
  CHECK(std::count(message.begin(), message.end(), '\n') == 2);
  CHECK_THAT(message, Contains(":2:"));
  CHECK_THAT(message, Contains(":3:"));
  CHECK_THAT(message, Contains(":4:"));
}

TEST_CASE("config: invalid TOML gives the parser's position") {
  const auto message = error_of("[cuda]\nnvrtc_library = \"unterminated\n");
  CHECK_THAT(message, Contains("repo/.kforecast.toml:2:"));
  CHECK_THAT(message, Contains("invalid TOML"));
  SECTION("duplicate keys") { CHECK_THAT(error_of("[cuda]\na = 1\na = 2\n"), Contains("invalid TOML")); }
  SECTION("an array closed by '}' (toml++ 3.3 asserts on it in debug builds; found by the fuzz target)") {
    CHECK_THAT(error_of("c=[1,}"), Contains("invalid TOML"));
  }
  SECTION("non-ASCII outside comments and one-line strings (toml++ 3.3 reaches __builtin_unreachable on it)") {
    const auto non_ascii = error_of("[pol\xcf\xbcy]\n");
    CHECK_THAT(non_ascii, Contains("repo/.kforecast.toml:1:5: non-ASCII text"));
    CHECK_THAT(error_of("[cuda]\ns = \"\"\"\\\n\xc2\xa7\"\"\"\n"), Contains(":3:1: non-ASCII text"));
  }
  SECTION("binary garbage") {
    CHECK_THAT(error_of(std::string("\xff\xfe\x00[", 4)), Contains("repo/.kforecast.toml:1:1: invalid UTF-8"));
  }
}
