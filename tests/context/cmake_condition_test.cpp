// SPDX-License-Identifier: Apache-2.0
// evaluate_condition: if() conditions worked out without CMake.
#include "context/cmake_condition.hpp"

#include <catch2/catch.hpp>

#include "context/found_define.hpp"

using namespace kforecast::context;
using Words = std::vector<std::string>;

TEST_CASE("cmake condition: constants, known variables, NOT, AND and OR") {
  const Variables variables{{"ON_OPTION", "ON"},
                            {"OFF_OPTION", "OFF"},
                            {"EMPTY", ""},
                            {"NAME", "tcnn"},
                            {"COMPUTED", unknown_reference("COMPUTED")}};
  CHECK(evaluate_condition({"ON_OPTION"}, variables, std::nullopt) == Truth::yes);
  CHECK(evaluate_condition({"OFF_OPTION"}, variables, std::nullopt) == Truth::no);
  CHECK(evaluate_condition({"EMPTY"}, variables, std::nullopt) == Truth::no);
  CHECK(evaluate_condition({"NAME"}, variables, std::nullopt) == Truth::yes);
  CHECK(evaluate_condition({"COMPUTED"}, variables, std::nullopt) == Truth::unknown);
  CHECK(evaluate_condition({"NEVER_SET"}, variables, std::nullopt) == Truth::unknown);
  CHECK(evaluate_condition({"NOT", "OFF_OPTION"}, variables, std::nullopt) == Truth::yes);
  CHECK(evaluate_condition({"OFF_OPTION", "AND", "NEVER_SET"}, variables, std::nullopt) == Truth::no);
  CHECK(evaluate_condition({"ON_OPTION", "OR", "NEVER_SET"}, variables, std::nullopt) == Truth::yes);
  CHECK(evaluate_condition({"ON_OPTION", "AND", "NEVER_SET"}, variables, std::nullopt) == Truth::unknown);
  CHECK(evaluate_condition({"NOT", "(", "OFF_OPTION", "OR", "EMPTY", ")"}, variables, std::nullopt) == Truth::yes);
  CHECK(evaluate_condition({"0"}, variables, std::nullopt) == Truth::no);
  CHECK(evaluate_condition({"x-NOTFOUND"}, variables, std::nullopt) == Truth::no);
}

TEST_CASE("cmake condition: platform variables are those of Linux") {
  CHECK(evaluate_condition({"MSVC"}, {}, std::nullopt) == Truth::no);
  CHECK(evaluate_condition({"WIN32", "OR", "APPLE"}, {}, std::nullopt) == Truth::no);
  CHECK(evaluate_condition({"UNIX"}, {}, std::nullopt) == Truth::yes);
}

TEST_CASE("cmake condition: CMAKE_SYSTEM_NAME is Linux, and MATCHES works out plain patterns") {
  // ggml's shape: _XOPEN_SOURCE=700 under OpenBSD, 600 otherwise; _DARWIN_C_SOURCE and friends
  // under other systems. Not worked out, every branch's defines were taken.
  const Variables none;
  CHECK(evaluate_condition({"CMAKE_SYSTEM_NAME", "MATCHES", "OpenBSD"}, none, std::nullopt) == Truth::no);
  CHECK(evaluate_condition({"CMAKE_SYSTEM_NAME", "MATCHES", "Linux"}, none, std::nullopt) == Truth::yes);
  CHECK(evaluate_condition({"CMAKE_SYSTEM_NAME", "STREQUAL", "Darwin"}, none, std::nullopt) == Truth::no);
  CHECK(evaluate_condition({"CMAKE_SYSTEM_NAME", "MATCHES", "^(Open|Net)BSD$"}, none, std::nullopt) == Truth::unknown);
  const Variables cross{{"CMAKE_SYSTEM_NAME", "Android"}};  // a project that sets it keeps its value
  CHECK(evaluate_condition({"CMAKE_SYSTEM_NAME", "MATCHES", "Android"}, cross, std::nullopt) == Truth::yes);
}

TEST_CASE("cmake condition: comparisons, with an architecture variable nothing set taking the target's") {
  const Variables variables{{"CC", "86"}, {"NAME", "a"}};
  CHECK(evaluate_condition({"CC", "GREATER", "70"}, variables, std::nullopt) == Truth::yes);
  CHECK(evaluate_condition({"CC", "LESS_EQUAL", "52"}, variables, std::nullopt) == Truth::no);
  CHECK(evaluate_condition({"NAME", "STREQUAL", "a"}, variables, std::nullopt) == Truth::yes);
  CHECK(evaluate_condition({"CUDA_VERSION", "VERSION_LESS", "11.0"}, variables, std::nullopt) == Truth::unknown);
  // tiny-cuda-nn's half-precision default.
  const Words half{"MIN_GPU_ARCH", "EQUAL", "61", "OR", "MIN_GPU_ARCH", "LESS_EQUAL", "52"};
  CHECK(evaluate_condition(half, variables, std::nullopt) == Truth::unknown);
  CHECK(evaluate_condition(half, variables, 90) == Truth::no);
  CHECK(evaluate_condition(half, variables, 52) == Truth::yes);
  CHECK(evaluate_condition({"DEFINED", "CC"}, variables, std::nullopt) == Truth::yes);
  CHECK(evaluate_condition({"DEFINED", "ENV{X}"}, variables, std::nullopt) == Truth::unknown);
  CHECK(evaluate_condition({"EXISTS", "/etc/passwd"}, variables, std::nullopt) == Truth::unknown);
}

TEST_CASE("cmake condition: a malformed condition is not known") {
  CHECK(evaluate_condition({}, {}, std::nullopt) == Truth::unknown);
  CHECK(evaluate_condition({"(", "ON"}, {}, std::nullopt) == Truth::unknown);
  CHECK(evaluate_condition({"ON", ")"}, {}, std::nullopt) == Truth::unknown);
  CHECK(evaluate_condition({"1", "EQUAL"}, {}, std::nullopt) == Truth::unknown);
  CHECK(evaluate_condition({"NOT"}, {}, std::nullopt) == Truth::unknown);
  CHECK(evaluate_condition(Words(200, "NOT"), {}, std::nullopt) == Truth::unknown);
}
