// SPDX-License-Identifier: Apache-2.0
#include "base/subprocess.hpp"

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace std::chrono_literals;

TEST_CASE("base: run_process") {
  SECTION("captures stdout, stderr and the exit status") {
    auto result = run_process({"sh", "-c", "echo out; echo err >&2; exit 7"});
    REQUIRE(result.has_value());
    CHECK(result->out == "out\n");
    CHECK(result->err == "err\n");
    CHECK(result->exit_status == 7);
  }
  SECTION("passes arguments without a shell") {
    auto result = run_process({"printf", "%s|", "a b", "$HOME"});
    REQUIRE(result.has_value());
    CHECK(result->out == "a b|$HOME|");
  }
  SECTION("feeds standard input larger than a pipe buffer") {
    std::string input(1 << 20, 'x');
    auto result = run_process({"wc", "-c"}, {.input = input});
    REQUIRE(result.has_value());
    CHECK(std::stoul(result->out) == input.size());
  }
  SECTION("a missing program is an error naming it") {
    auto result = run_process({"kforecast-no-such-program"});
    REQUIRE_FALSE(result.has_value());
    CHECK(result.error().message.find("kforecast-no-such-program") != std::string::npos);
  }
  SECTION("a child past its timeout is stopped") {
    auto result = run_process({"sleep", "5"}, {.timeout = 200ms});
    REQUIRE_FALSE(result.has_value());
    CHECK(result.error().message.find("did not finish") != std::string::npos);
  }
  SECTION("runs in the given directory") {
    auto result = run_process({"pwd"}, {.working_directory = "/tmp"});
    REQUIRE(result.has_value());
    CHECK(result->out == "/tmp\n");
  }
}
