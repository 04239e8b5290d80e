// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#include "capture/attached_process.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::capture;

TEST_CASE("capture attached process: the exit status passes on") {
  CHECK(run_attached({"sh", "-c", "exit 0"}, {}).value() == 0);
  CHECK(run_attached({"sh", "-c", "exit 7"}, {}).value() == 7);
  CHECK(run_attached({"sh", "-c", "kill -TERM $$"}, {}).value() == 128 + 15);
}

TEST_CASE("capture attached process: added variables reach the program, replacing inherited ones") {
  testing::TempDir dir;
  const auto out = dir.path() / "env.txt";
  const auto status = run_attached({"sh", "-c", "printf '%s|%s' \"$KF_ADDED\" \"$PATH\" > \"$0\"", out.string()},
                                   {{"KF_ADDED", "yes"}, {"PATH", "/bin:/usr/bin"}});
  REQUIRE(status.value() == 0);
  std::ifstream file(out);
  CHECK(std::string(std::istreambuf_iterator<char>(file), {}) == "yes|/bin:/usr/bin");
}

TEST_CASE("capture attached process: a program that cannot start is an error naming it") {
  const auto missing = run_attached({"/nonexistent/kernel_test"}, {});
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error().message, Catch::Matchers::Contains("cannot run /nonexistent/kernel_test"));
}
