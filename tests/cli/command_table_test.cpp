// SPDX-License-Identifier: Apache-2.0
#include <set>

#include <catch2/catch.hpp>

#include "cli/handlers.hpp"

using namespace kforecast::cli;
using Catch::Matchers::Contains;

TEST_CASE("cli: the table holds every command of the design") {
  for (std::string_view name : {"pr", "lint", "check", "bench", "eval", "calibration", "doctor", "config", "help", "spec"}) {
    INFO(name);
    const Command* command = find_command(name);
    REQUIRE(command != nullptr);
    CHECK_FALSE(command->summary.empty());
    CHECK(command->usage.starts_with("kforecast"));
    CHECK(command->handler != nullptr);
  }
  CHECK(find_command("prr") == nullptr);
}

TEST_CASE("cli: command names and option names are unique") {
  std::set<std::string_view> names;
  for (const Command& command : all_commands()) {
    CHECK(names.insert(command.name).second);
    std::set<std::string_view> options;
    for (const OptionSpec& option : command.options) {
      CHECK(option.name.starts_with("--"));
      CHECK(options.insert(option.name).second);
    }
  }
}

TEST_CASE("cli: the pr contract's options exist") {
  const Command* pr = find_command("pr");
  std::set<std::string_view> options;
  for (const OptionSpec& option : pr->options) options.insert(option.name);
  for (std::string_view flag :
       {"--base", "--head", "--repo", "--format", "--output", "--forecaster", "--no-bench", "--plan", "--post"})
    CHECK(options.contains(flag));
}

TEST_CASE("cli: help texts") {
  const std::string help = main_help();
  for (const Command& command : all_commands()) CHECK_THAT(help, Contains(std::string(command.name)));
  CHECK_THAT(help, Contains("exit codes: 0 pass, 1 gate failed"));
  const std::string doctor = command_help(*find_command("doctor"));
  CHECK_THAT(doctor, Contains("usage: kforecast doctor"));
  CHECK_THAT(doctor, Contains("--config FILE"));
  const std::string check = command_help(*find_command("check"));
  CHECK_THAT(check, !Contains("Not built yet"));
  CHECK_THAT(check, Contains("kforecast check src/gemm.cu:sgemm"));
}
