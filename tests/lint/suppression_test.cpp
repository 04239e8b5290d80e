// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "lint/suppression.hpp"

using namespace kforecast::lint;

TEST_CASE("lint: a comment on the line suppresses the rules it names") {
  CHECK(suppressed_on_line("x = 1.0;  // kforecast: ignore double-literal", "double-literal"));
  CHECK(suppressed_on_line("x = 1.0;  // kforecast: ignore printf-in-kernel, double-literal", "double-literal"));
  CHECK(suppressed_on_line("x = 1.0;  /* kforecast: ignore all */", "double-literal"));
  CHECK_FALSE(suppressed_on_line("x = 1.0;  // kforecast: ignore double-math-function", "double-literal"));
  CHECK_FALSE(suppressed_on_line("x = 1.0;", "double-literal"));
  CHECK_FALSE(suppressed_on_line("s = \"kforecast: ignore double-literal\";", "double-literal"));  // not a comment
  CHECK_FALSE(suppressed_on_line("// kforecast: ignore double-literals", "double-literal"));
}

TEST_CASE("lint: path suppressions from the config") {
  auto parsed = PathSuppressions::parse({"third_party/*", "src/legacy/*.cu:printf-in-kernel,assert-in-kernel"});
  REQUIRE(parsed.has_value());
  CHECK(parsed->suppressed("third_party/cutlass/gemm.cu", "double-literal"));
  CHECK(parsed->suppressed("src/legacy/old.cu", "printf-in-kernel"));
  CHECK(parsed->suppressed("src/legacy/old.cu", "assert-in-kernel"));
  CHECK_FALSE(parsed->suppressed("src/legacy/old.cu", "double-literal"));
  CHECK_FALSE(parsed->suppressed("src/new.cu", "printf-in-kernel"));

  CHECK_FALSE(PathSuppressions::parse({"src/*.cu:"}).has_value());
  CHECK_FALSE(PathSuppressions::parse({":double-literal"}).has_value());
}
