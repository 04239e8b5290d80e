// SPDX-License-Identifier: Apache-2.0
// split_shell_words: a compile database's "command" split as the shell that ran it would.
#include "context/shell_words.hpp"

#include <catch2/catch.hpp>

using kforecast::context::split_shell_words;
using Words = std::vector<std::string>;

TEST_CASE("shell words: blanks separate words, and runs of them count once") {
  CHECK(split_shell_words("nvcc  -c\tk.cu \n") == Words{"nvcc", "-c", "k.cu"});
  CHECK(split_shell_words("") == Words{});
  CHECK(split_shell_words("   ") == Words{});
}

TEST_CASE("shell words: quotes keep blanks, and join with the text around them") {
  CHECK(split_shell_words(R"(nvcc "-DNAME=a b" '-DQ=$HOME' -I"my dir"/inc)") ==
        Words{"nvcc", "-DNAME=a b", "-DQ=$HOME", "-Imy dir/inc"});
  CHECK(split_shell_words(R"(a "" '' b)") == Words{"a", "", "", "b"});
}

TEST_CASE("shell words: backslashes escape outside quotes, and only some characters inside double quotes") {
  CHECK(split_shell_words(R"(-DMSG=\"hi\" a\ b)") == Words{R"(-DMSG="hi")", "a b"});
  CHECK(split_shell_words(R"("a\"b" "c\d" 'e\f')") == Words{R"(a"b)", R"(c\d)", R"(e\f)"});
  CHECK(split_shell_words("a \\\n b") == Words{"a", "b"});  // a line continuation
}

TEST_CASE("shell words: nothing is expanded") {
  CHECK(split_shell_words("nvcc $(rm -rf /) `id` *.cu") == Words{"nvcc", "$(rm", "-rf", "/)", "`id`", "*.cu"});
}

TEST_CASE("shell words: an unterminated quote or a trailing backslash is an error that says which") {
  auto single = split_shell_words("nvcc '-DA=1");
  REQUIRE_FALSE(single);
  CHECK(single.error().message == "an unterminated single quote");
  auto double_quote = split_shell_words("nvcc \"-DA=1");
  REQUIRE_FALSE(double_quote);
  CHECK(double_quote.error().message == "an unterminated double quote");
  auto backslash = split_shell_words("nvcc \\");
  REQUIRE_FALSE(backslash);
  CHECK(backslash.error().message == "a backslash at the end of the command");
}
