// SPDX-License-Identifier: Apache-2.0
#include "base/plain_text.hpp"

#include <sstream>

#include <catch2/catch.hpp>

#include "base/redaction.hpp"

using namespace kforecast;

TEST_CASE("plain text: one printable line") {
  CHECK(printable_line("a\nb\tc\x1b[2Jd\x7f") == "a b c?[2Jd?");
  CHECK(printable_line("abc\u202Edef") == "abc?def");
}

TEST_CASE("plain text: quoted lines never start a line with the text") {
  const std::string log = "first\n::set-output name=x::y\n\n  ::add-mask::hunter2\nlast";
  CHECK(quoted_lines(log, "    why: ", "    ") ==
        "    why: first\n    | ::set-output name=x::y\n    |   ::add-mask::hunter2\n    | last\n");
  CHECK(quoted_lines(log, "- ", "  ", 2, "...") == "- first\n  | ::set-output name=x::y\n  ...\n");
  // A blank label leaves the first line to the text: it is quoted where it would read as a command.
  CHECK(quoted_lines("::error::x\nok", "  ", "  ") == "  | ::error::x\n  | ok\n");
  CHECK(quoted_lines("fine", "", "") == "fine\n");
  CHECK(quoted_lines("\n \n", "x", "y").empty());
}

TEST_CASE("plain text: a line that reads as a workflow command is quoted, across pieces of text") {
  CHECK(reads_as_workflow_command("::error::x"));
  CHECK(reads_as_workflow_command(" \t::add-mask::x"));
  CHECK_FALSE(reads_as_workflow_command("a ::error::x"));
  bool at_line_start = true;
  CHECK(neutralise_workflow_commands("ok\n::error::x\n  ::warning::y\nend ::z", at_line_start) ==
        "ok\n| ::error::x\n|   ::warning::y\nend ::z");
  CHECK_FALSE(at_line_start);
  CHECK(neutralise_workflow_commands("::continued\n::next", at_line_start) == "::continued\n| ::next");
}

TEST_CASE("plain text: the process's output streams quote a line that reads as a workflow command") {
  std::ostringstream target;
  {
    RedactingStream out(target);
    out.stream() << "kforecast: error: plan.json: bad\n::set-output name=x::y\n";
    out.stream() << "  ::add-mask::z\nfine ::x\n";
  }
  CHECK(target.str() == "kforecast: error: plan.json: bad\n| ::set-output name=x::y\n|   ::add-mask::z\nfine ::x\n");
}
