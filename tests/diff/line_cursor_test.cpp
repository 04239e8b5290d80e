// SPDX-License-Identifier: Apache-2.0
#include "diff/line_cursor.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::diff;

TEST_CASE("diff: the line cursor splits on newlines and drops one carriage return") {
  LineCursor cursor("one\r\ntwo\n\nlast\r\r");
  CHECK(cursor.line() == "one");
  CHECK(cursor.ends_in_cr());
  CHECK(cursor.number() == 1);
  CHECK(cursor.peek() == "two");
  cursor.advance();
  CHECK(cursor.line() == "two");
  CHECK_FALSE(cursor.ends_in_cr());
  CHECK(cursor.number() == 2);
  cursor.advance();
  CHECK(cursor.line().empty());
  CHECK_FALSE(cursor.at_end());
  cursor.advance();
  SECTION("a last line without a newline still counts; only one \\r is dropped") {
    CHECK(cursor.line() == "last\r");
    CHECK(cursor.ends_in_cr());
    CHECK(cursor.peek().empty());
    cursor.advance();
    CHECK(cursor.at_end());
    CHECK(cursor.number() == 5);
    cursor.advance();
    CHECK(cursor.at_end());
    CHECK(cursor.line().empty());
  }
}

TEST_CASE("diff: the line cursor on empty text and on a text ending in a newline") {
  LineCursor empty("");
  CHECK(empty.at_end());
  LineCursor ended("a\n");
  CHECK_FALSE(ended.at_end());
  CHECK(ended.line() == "a");
  ended.advance();
  CHECK(ended.at_end());
  LineCursor lone_cr("\r");
  CHECK_FALSE(lone_cr.at_end());
  CHECK(lone_cr.line().empty());
  CHECK(lone_cr.ends_in_cr());
}
