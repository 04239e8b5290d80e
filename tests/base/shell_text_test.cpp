// SPDX-License-Identifier: Apache-2.0
// What nvcc's shell would act on: the characters refused in text from a revision, and defines.
#include "base/shell_text.hpp"

#include <catch2/catch.hpp>

using namespace kforecast;

TEST_CASE("shell text: $, backquote, backslash and control characters are active, quotes and braces are not") {
  CHECK(shell_active_character("1$(curl -s http://h/x)") == '$');
  CHECK(shell_active_character("`id`") == '`');
  CHECK(shell_active_character("a\\\"b") == '\\');
  CHECK(shell_active_character("a\nb") == '\n');
  CHECK(shell_active_character(std::string_view("a\0b", 3)) == '\0');
  CHECK(shell_active_character("a\x7f") == '\x7f');
  CHECK(shell_active_character(R"("{\"k\": 1}")") == '\\');  // a backslash
  CHECK_FALSE(shell_active_character("\"{a b}\"").has_value());
  CHECK_FALSE(shell_active_character("\"/opt/my dir/x\"").has_value());
  CHECK_FALSE(shell_active_character("'single' ;|&<>()*?!#~").has_value());
  CHECK(shell_active_or_quote("inc\"lude") == '"');
  CHECK_FALSE(shell_active_or_quote("src/a b/c.cu").has_value());
}

TEST_CASE("shell text: a define's name and parameters are checked as well as its value") {
  CHECK_FALSE(define_refusal("NAME", "\"{...}\"").has_value());
  CHECK_FALSE(define_refusal("MAX(a, b)", "((a) > (b) ? (a) : (b))").has_value());
  CHECK_FALSE(define_refusal("LOG(fmt, ...)", "printf(fmt)").has_value());
  CHECK(define_refusal("X", "1$(curl -s http://HOST/x)") ==
        "its value holds '$', which the shell nvcc runs its steps in would act on");
  CHECK(define_refusal("X($(cmd))", "1") == "'X($(cmd))' is not a macro name");
  CHECK(define_refusal("X(`id`)", "1") == "'X(`id`)' is not a macro name");
  CHECK(define_refusal("X(a,)", "1").has_value());
  CHECK(define_refusal("1X", "1").has_value());
  CHECK(define_refusal("X Y", "1").has_value());
  CHECK(define_refusal("X", "a`id`").has_value());
  CHECK(define_refusal("X", "line\nnext").has_value());
  CHECK(define_refusal("X", "\"a") == "its value holds an unbalanced double quote, which nvcc refuses");
  CHECK_FALSE(define_refusal("X", "\"a\"\"b\"").has_value());
}

TEST_CASE("shell text: characters named as a note names them") {
  CHECK(describe_character('$') == "'$'");
  CHECK(describe_character('`') == "a backquote");
  CHECK(describe_character('\\') == "a backslash");
  CHECK(describe_character('\n') == "a newline");
  CHECK(describe_character('\x07') == "control character 0x07");
}

TEST_CASE("shell text: a suggested command's words are read back by a shell as written") {
  CHECK(shell_word("src/gemm.cu:sgemm") == "src/gemm.cu:sgemm");
  CHECK(shell_word("src/gemm.cu:tiled<64, 8>") == "'src/gemm.cu:tiled<64, 8>'");
  CHECK(shell_word("a$(touch m).cu:k") == "'a$(touch m).cu:k'");
  CHECK(shell_word("it's") == "'it'\\''s'");
  CHECK(shell_word("") == "''");
}
