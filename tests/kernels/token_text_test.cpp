// SPDX-License-Identifier: Apache-2.0
#include "kernels/token_text.hpp"

#include <catch2/catch.hpp>

#include "kernels/lexer.hpp"

using namespace kforecast::kernels;

TEST_CASE("kernels: spaced text keeps single spaces as written and makes one space of any other gap") {
  // Written with single spaces (copied as one run of the source) and not (built token by token).
  CHECK(spaced_text(lex("template <int BM, typename T>")) == "template <int BM, typename T>");
  CHECK(spaced_text(lex("f(x)")) == "f(x)");
  CHECK(spaced_text(lex("const   float *\n x")) == "const float * x");
  CHECK(spaced_text(lex("a/*c*/b")) == "a b");
  CHECK(spaced_text(lex("a\tb c")) == "a b c");
  CHECK(spaced_text(lex("a \\\nb")) == "a b");
  CHECK(spaced_text(lex("")).empty());
  // Directive brackets are left out; what follows a directive's line is spaced from it.
  CHECK(spaced_text(lex("#define X 1\nint y")) == "define X 1 int y");
  // Appending adds no space before the first token, as written or not.
  std::string text = "x";
  append_spaced_text(text, lex("int y"));
  CHECK(text == "xint y");
  append_spaced_text(text, lex("  a  b"));
  CHECK(text == "xint ya b");
}
