// SPDX-License-Identifier: Apache-2.0
#include "base/process_session.hpp"

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace std::chrono_literals;
using Catch::Matchers::Contains;

namespace {
// An answer is complete at its `count`th newline.
ProcessSession::AnswerLength lines(std::size_t count) {
  return [count](std::string_view output) -> std::size_t {
    std::size_t seen = 0;
    for (std::size_t i = 0; i < output.size(); ++i)
      if (output[i] == '\n' && ++seen == count) return i + 1;
    return 0;
  };
}
}  // namespace

TEST_CASE("base: a process session answers several exchanges") {
  auto session = ProcessSession::start({"cat"});
  REQUIRE(session.has_value());
  SECTION("one process, request after request") {
    CHECK(*(*session)->exchange("one\n", lines(1), 5s) == "one\n");
    CHECK(*(*session)->exchange("two\nthree\n", lines(2), 5s) == "two\nthree\n");
  }
  SECTION("a request and an answer larger than a pipe buffer, written and read together") {
    std::string big;
    for (int i = 0; i < 20000; ++i) big += "line " + std::to_string(i) + " of a long request\n";
    auto answer = (*session)->exchange(big, lines(20000), 10s);
    REQUIRE(answer.has_value());
    CHECK(*answer == big);
  }
  SECTION("output past the answer is kept for the next exchange") {
    CHECK(*(*session)->exchange("a\nb\n", lines(1), 5s) == "a\n");
    CHECK(*(*session)->exchange("", lines(1), 5s) == "b\n");
  }
}

TEST_CASE("base: a process session reports a child that ends or stalls") {
  SECTION("a child that exits first: its standard error names why") {
    auto session = ProcessSession::start({"sh", "-c", "echo 'no such object' >&2; exit 3"});
    REQUIRE(session.has_value());
    auto answer = (*session)->exchange("x\n", lines(1), 5s);
    REQUIRE_FALSE(answer.has_value());
    CHECK_THAT(answer.error().message, Contains("ended before it answered") && Contains("no such object"));
  }
  SECTION("a child that never answers is stopped at the timeout") {
    auto session = ProcessSession::start({"sleep", "5"});
    REQUIRE(session.has_value());
    auto answer = (*session)->exchange("x\n", lines(1), 200ms);
    REQUIRE_FALSE(answer.has_value());
    CHECK_THAT(answer.error().message, Contains("did not answer"));
  }
  SECTION("a missing program is an error naming it") {
    auto session = ProcessSession::start({"kforecast-no-such-program"});
    REQUIRE_FALSE(session.has_value());
    CHECK_THAT(session.error().message, Contains("kforecast-no-such-program"));
  }
}
