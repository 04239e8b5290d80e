// SPDX-License-Identifier: Apache-2.0
#include "diff/hunk.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::diff;
using Lines = std::vector<std::uint32_t>;

namespace {
HunkHeader header(std::string_view line) {
  auto parsed = parse_hunk_header(line);
  if (!parsed) FAIL(parsed.error());
  return *parsed;
}
// Reads the hunk at the start of `text` into a fresh FileDiff.
FileDiff read(std::string_view text, std::string_view expected_next_line = "") {
  LineCursor cursor(text);
  FileDiff file;
  auto result = read_hunk(cursor, file);
  if (!result) FAIL(result.error().message);
  CHECK(cursor.line() == expected_next_line);
  REQUIRE(file.hunks.size() == 1);
  return file;
}
std::string read_error(std::string_view text) {
  LineCursor cursor(text);
  FileDiff file;
  auto result = read_hunk(cursor, file);
  REQUIRE_FALSE(result.has_value());
  return result.error().message;
}
}  // namespace

TEST_CASE("diff: hunk headers, with and without counts and headings") {
  const auto full = header("@@ -12,7 +13,9 @@ __global__ void k(float* x)");
  CHECK(full.old_start == 12);
  CHECK(full.old_count == 7);
  CHECK(full.new_start == 13);
  CHECK(full.new_count == 9);
  const auto short_form = header("@@ -5 +6 @@");
  CHECK(short_form.old_count == 1);
  CHECK(short_form.new_count == 1);
  CHECK(short_form.new_start == 6);
  const auto empty_file = header("@@ -0,0 +1,3 @@");
  CHECK(empty_file.old_start == 0);
  CHECK(empty_file.old_count == 0);
  CHECK(header("@@ -4294967295 +1,0 @@").old_start == 4294967295u);
  SECTION("malformed headers say what is wrong") {
    CHECK(parse_hunk_header("@@ -1 +1").error() == "expected '@@ -OLD[,COUNT] +NEW[,COUNT] @@'");
    CHECK(parse_hunk_header("@@@ -1 -1 +1 @@@").error() == "expected '@@ -OLD[,COUNT] +NEW[,COUNT] @@'");
    CHECK(parse_hunk_header("@@ -a +1 @@").error() == "the old start is missing");
    CHECK(parse_hunk_header("@@ -1, +1 @@").error() == "the old count is missing");
    CHECK(parse_hunk_header("@@ -1 +1,x @@").error() == "the new count is missing");
    CHECK(parse_hunk_header("@@ -0,1 +1 @@").error() == "the old side counts lines from line 0");
    CHECK(parse_hunk_header("@@ -1 +0 @@").error() == "the new side counts lines from line 0");
    CHECK(parse_hunk_header("@@ -1 +4294967290,7 @@").error() == "the new lines run past line 4294967295");
    CHECK(parse_hunk_header("@@ -1,4294967296 +1 @@").error() == "the old count is larger than 4294967295");
  }
}

TEST_CASE("diff: a hunk body gives removed lines in old numbering and added lines in new numbering") {
  const FileDiff file = read("@@ -10,6 +20,7 @@\n a\n-b\n-c\n+B\n d\n+e\n+f\n g\n h\ndiff --git", "diff --git");
  const Hunk& hunk = file.hunks[0];
  CHECK(hunk.removed == Lines{11, 12});
  CHECK(hunk.added == Lines{21, 23, 24});
  CHECK_FALSE(file.crlf);
  SECTION("an empty line is an empty context line") {
    const FileDiff lenient = read("@@ -1,3 +1,3 @@\n a\n\n-c\n+C\n");
    CHECK(lenient.hunks[0].removed == Lines{3});
    CHECK(lenient.hunks[0].added == Lines{3});
  }
  SECTION("the next hunk, a format-patch signature or a GNU diff file may follow") {
    read("@@ -1 +1 @@\n-a\n+b\n@@ -5 +5 @@\n", "@@ -5 +5 @@");
    read("@@ -1 +1 @@\n-a\n+b\n-- \n2.39.5\n", "-- ");
    read("@@ -1 +1 @@\n-a\n+b\n--- a/x\n+++ b/x\n", "--- a/x");
    read("@@ -1 +1 @@\n-a\n+b\nIndex: x\n", "Index: x");
  }
}

TEST_CASE("diff: the no-newline-at-end-of-file marker marks the side of the line before it") {
  const FileDiff both = read("@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n");
  CHECK(both.old_missing_final_newline);
  CHECK(both.new_missing_final_newline);
  CHECK(both.hunks[0].added == Lines{1});
  const FileDiff context = read("@@ -1,2 +1,2 @@\n-a\n+b\n c\n\\ No newline at end of file\n");
  CHECK(context.old_missing_final_newline);
  CHECK(context.new_missing_final_newline);
  const FileDiff new_only = read("@@ -1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n");
  CHECK_FALSE(new_only.old_missing_final_newline);
  CHECK(new_only.new_missing_final_newline);
  const FileDiff old_only = read("@@ -1,2 +1 @@\n a\n-b\n\\ Kein Zeilenumbruch am Dateiende.\n");
  CHECK(old_only.old_missing_final_newline);
  CHECK_FALSE(old_only.new_missing_final_newline);
}

TEST_CASE("diff: CRLF content lines are read and reported") {
  const FileDiff file = read("@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+c\r\n");
  CHECK(file.crlf);
  CHECK(file.hunks[0].added == Lines{2});
}

TEST_CASE("diff: a body that disagrees with the header is an error naming the line") {
  CHECK(read_error("@@ -1 +1 @@\n-a\n") ==
        "diff line 2: the diff ends, in the hunk '@@ -1,1 +1,1 @@' that starts at diff line 1 (1 of 1 old and 0 of 1 "
        "new lines read): the diff is truncated, or was edited without fixing the hunk's counts");
  CHECK(read_error("@@ -1 +1 @@\n").starts_with("diff line 1: the diff ends"));
  CHECK(read_error("@@ -1 +1 @@\n-a\n*b\n").starts_with("diff line 3: '*b' is not a hunk line"));
  CHECK(read_error("@@ -1 +1 @@\n-a\n+b\n+c\n").starts_with("diff line 4: '+c' follows the hunk's last line"));
  CHECK(read_error("@@ -1 +1 @@\n-a\n+b\n--- not a file\n").starts_with("diff line 4: '--- not a file' follows"));
  CHECK(read_error("@@ -x +1 @@\n") == "diff line 1: bad hunk header '@@ -x +1 @@': the old start is missing");
}
