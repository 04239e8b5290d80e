// SPDX-License-Identifier: Apache-2.0
#include "diff/diagnostic.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::diff;

TEST_CASE("diff: errors name the diff line and carry the usage exit code") {
  const auto error = error_at(42, "what went wrong");
  CHECK(error.error().message == "diff line 42: what went wrong");
  CHECK(error.error().exit_code == kforecast::ExitCode::usage);
}

TEST_CASE("diff: excerpts escape unprintable bytes and stop after 60 bytes") {
  CHECK(excerpt("plain text") == "plain text");
  CHECK(excerpt(std::string_view("a\0b\x1b\xff\x7f", 6)) == "a\\x00b\\x1B\\xFF\\x7F");
  CHECK(excerpt(std::string(60, 'x')) == std::string(60, 'x'));
  CHECK(excerpt(std::string(61, 'x')) == std::string(60, 'x') + "...");
  CHECK(excerpt("").empty());
}
