// SPDX-License-Identifier: Apache-2.0
#include "base/json_string.hpp"

#include <catch2/catch.hpp>

using kforecast::json_string;

TEST_CASE("base: JSON strings from untrusted bytes") {
  CHECK(json_string("sgemm") == "\"sgemm\"");
  CHECK(json_string("a\"b\\c") == R"("a\"b\\c")");
  CHECK(json_string("line\nbreak\ttab\r") == R"("line\nbreak\ttab\r")");
  CHECK(json_string(std::string("nul\0bell\a", 9)) == R"("nul\u0000bell\u0007")");
  CHECK(json_string("caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80") == "\"caf\xc3\xa9 \xe2\x80\x94 \xf0\x9f\x98\x80\"");
  SECTION("invalid UTF-8 becomes U+FFFD, one per bad byte") {
    CHECK(json_string("\xff") == R"("\ufffd")");
    CHECK(json_string("a\xc3") == R"("a\ufffd")");                    // truncated
    CHECK(json_string("\xc0\xaf") == R"("\ufffd\ufffd")");            // overlong
    CHECK(json_string("\xed\xa0\x80") == R"("\ufffd\ufffd\ufffd")");  // surrogate
  }
}
