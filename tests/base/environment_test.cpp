// SPDX-License-Identifier: Apache-2.0
#include "base/environment.hpp"

#include <cstdlib>

#include <catch2/catch.hpp>

using namespace kforecast;

TEST_CASE("base: process_environment reads the real environment") {
  ::setenv("KFORECAST_TEST_VARIABLE", "value", 1);
  ::setenv("KFORECAST_TEST_EMPTY", "", 1);
  const auto env = process_environment();
  CHECK(env("KFORECAST_TEST_VARIABLE") == std::optional<std::string>("value"));
  CHECK(env("KFORECAST_TEST_EMPTY") == std::optional<std::string>(""));
  CHECK(env("KFORECAST_TEST_VARIABLE_UNSET") == std::nullopt);
}

TEST_CASE("base: fixed_environment holds exactly what it was given") {
  const auto env = fixed_environment({{"A", "1"}});
  CHECK(env("A") == std::optional<std::string>("1"));
  CHECK(env("B") == std::nullopt);
  CHECK(env("a") == std::nullopt);
}
