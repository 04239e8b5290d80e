// SPDX-License-Identifier: Apache-2.0
#include "base/nearest_name.hpp"

#include <array>

#include <catch2/catch.hpp>

using namespace kforecast;

TEST_CASE("base: edit distance") {
  CHECK(edit_distance("", "") == 0);
  CHECK(edit_distance("bench", "bench") == 0);
  CHECK(edit_distance("bench", "") == 5);
  CHECK(edit_distance("kitten", "sitting") == 3);
  SECTION("a swap of neighbours is one edit") { CHECK(edit_distance("bnech", "bench") == 1); }
  SECTION("symmetric") { CHECK(edit_distance("doctor", "dcotro") == edit_distance("dcotro", "doctor")); }
}

TEST_CASE("base: nearest name") {
  constexpr std::array<std::string_view, 4> commands{"bench", "check", "doctor", "pr"};
  CHECK(nearest_name("bnech", commands) == "bench");
  CHECK(nearest_name("doctr", commands) == "doctor");
  CHECK(nearest_name("doc", commands) == "doctor");
  SECTION("nothing plausible gives no suggestion") {
    CHECK_FALSE(nearest_name("frobnicate", commands).has_value());
    CHECK(did_you_mean("frobnicate", commands).empty());
  }
  CHECK(did_you_mean("chek", commands) == " (did you mean 'check'?)");
}
