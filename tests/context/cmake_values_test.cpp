// SPDX-License-Identifier: Apache-2.0
// cmake_values: lists, flags strings, and the variables unmodelled commands compute.
#include "context/cmake_values.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::context;
using Strings = std::vector<std::string>;

TEST_CASE("cmake values: list items keep a generator expression whole and an escaped separator") {
  CHECK(list_items("-DA;;-DB") == Strings{"-DA", "-DB"});
  CHECK(list_items("$<$<CONFIG:Debug>:-DX;-DY>;-DZ") == Strings{"$<$<CONFIG:Debug>:-DX;-DY>", "-DZ"});
  CHECK(list_items("a\\;b") == Strings{"a;b"});
  CHECK(list_items("").empty());
  CHECK(join_list({"a", "b"}) == "a;b");
}

TEST_CASE("cmake values: flags strings split at blanks and list separators") {
  CHECK(flag_words(" -O3\t-DX=1 ;--use_fast_math") == Strings{"-O3", "-DX=1", "--use_fast_math"});
  CHECK(flag_words("   ").empty());
}

TEST_CASE("cmake values: the variable a command computes") {
  CHECK(computed_variable("list", {"GET", "CMAKE_CUDA_ARCHITECTURES", "0", "MIN_GPU_ARCH"}) == "MIN_GPU_ARCH");
  CHECK(computed_variable("list", {"FILTER", "L", "INCLUDE", "REGEX", "x"}) == "L");
  CHECK(computed_variable("string", {"REPLACE", "-virtual", "", "MIN_GPU_ARCH", "86-virtual"}) == "MIN_GPU_ARCH");
  CHECK(computed_variable("string", {"REGEX", "REPLACE", "a", "b", "OUT", "in"}) == "OUT");
  CHECK(computed_variable("string", {"REGEX", "MATCH", "a", "OUT", "in"}) == "OUT");
  CHECK(computed_variable("math", {"EXPR", "N", "1 + 2"}) == "N");
  CHECK(computed_variable("execute_process", {"COMMAND", "x", "OUTPUT_VARIABLE", "OUT"}) == "OUT");
  CHECK(computed_variable("find_library", {"CUBLAS", "cublas"}) == "CUBLAS");
  CHECK_FALSE(computed_variable("string", {"REPLACE", "a"}));
  CHECK_FALSE(computed_variable("string", {"TIMESTAMP_UNKNOWN", "X"}));
  CHECK_FALSE(computed_variable("message", {"STATUS", "x"}));
  CHECK_FALSE(computed_variable("list", {"GET"}));
  CHECK_FALSE(computed_variable("math", {}));
}
