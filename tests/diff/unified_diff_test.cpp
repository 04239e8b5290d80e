// SPDX-License-Identifier: Apache-2.0
#include "diff/unified_diff.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace kforecast::diff;
using namespace std::string_literals;
using kforecast::ExitCode;
using Lines = std::vector<std::uint32_t>;

namespace {
ParsedDiff parse(std::string_view text) {
  auto parsed = parse_unified_diff(text);
  if (!parsed) FAIL(parsed.error().message);
  return *parsed;
}
std::string parse_error(std::string_view text) {
  auto parsed = parse_unified_diff(text);
  REQUIRE_FALSE(parsed.has_value());
  CHECK(parsed.error().exit_code == ExitCode::usage);
  return parsed.error().message;
}

// 20 lines: k.cu from line 1, h.cuh from line 15.
constexpr std::string_view two_files =
    "diff --git a/k.cu b/k.cu\n"
    "index 1111111..2222222 100644\n"
    "--- a/k.cu\n"
    "+++ b/k.cu\n"
    "@@ -3,4 +3,5 @@ __global__ void k()\n"
    " a\n"
    "-b\n"
    "+B\n"
    "+C\n"
    " c\n"
    " d\n"
    "@@ -20 +21 @@\n"
    "-x\n"
    "+y\n"
    "diff --git a/h.cuh b/h.cuh\n"
    "--- a/h.cuh\n"
    "+++ b/h.cuh\n"
    "@@ -1,2 +1 @@\n"
    "-gone\n"
    " kept\n";
}  // namespace

TEST_CASE("diff: a git diff of two modified files gives paths, hunks and changed line numbers") {
  const ParsedDiff diff = parse(two_files);
  REQUIRE(diff.files.size() == 2);
  CHECK(diff.notes.empty());
  const FileDiff& k = diff.files[0];
  CHECK(k.old_path == "k.cu");
  CHECK(k.new_path == "k.cu");
  CHECK(k.path() == "k.cu");
  CHECK(k.kind == ChangeKind::modified);
  CHECK(k.similarity == -1);
  CHECK(k.old_mode == "100644");
  CHECK(k.new_mode == "100644");
  CHECK_FALSE(k.binary);
  CHECK_FALSE(k.crlf);
  CHECK_FALSE(k.old_missing_final_newline);
  CHECK_FALSE(k.new_missing_final_newline);
  CHECK(k.diff_line == 1);
  REQUIRE(k.hunks.size() == 2);
  CHECK(k.hunks[0].old_start == 3);
  CHECK(k.hunks[0].old_count == 4);
  CHECK(k.hunks[0].new_start == 3);
  CHECK(k.hunks[0].new_count == 5);
  CHECK(k.hunks[0].removed == Lines{4});
  CHECK(k.hunks[0].added == Lines{4, 5});
  SECTION("an omitted count means one line") {
    CHECK(k.hunks[1].old_start == 20);
    CHECK(k.hunks[1].old_count == 1);
    CHECK(k.hunks[1].new_count == 1);
    CHECK(k.hunks[1].removed == Lines{20});
    CHECK(k.hunks[1].added == Lines{21});
  }
  SECTION("the second file starts at its own diff line") {
    const FileDiff& h = diff.files[1];
    CHECK(h.path() == "h.cuh");
    CHECK(h.diff_line == 15);
    CHECK(h.old_mode.empty());
    REQUIRE(h.hunks.size() == 1);
    CHECK(h.hunks[0].removed == Lines{1});
    CHECK(h.hunks[0].added.empty());
  }
}

TEST_CASE("diff: empty and blank input is an empty diff, and text without a diff is an error") {
  CHECK(parse("").files.empty());
  CHECK(parse("\n\n  \n").files.empty());
  CHECK(parse_error("hello\nworld\n") ==
        "diff line 1: no file diffs found (no 'diff --git' line, and no '---' line followed by '+++'): is this a "
        "unified diff?");
}

TEST_CASE("diff: damaged hunks are errors that name the diff line") {
  const std::string head = "diff --git a/k.cu b/k.cu\n--- a/k.cu\n+++ b/k.cu\n";
  SECTION("truncated in the middle of a hunk") {
    CHECK(parse_error(head + "@@ -1,3 +1,3 @@\n a\n-b\n") ==
          "diff line 6: the diff ends, in the hunk '@@ -1,3 +1,3 @@' that starts at diff line 4 (2 of 3 old and 1 "
          "of 3 new lines read): the diff is truncated, or was edited without fixing the hunk's counts");
  }
  SECTION("a body shorter than its counts, cut off by the next file") {
    auto message = parse_error(head + "@@ -1,2 +1,2 @@\n a\ndiff --git a/x b/x\n");
    CHECK(message.starts_with("diff line 6: 'diff --git a/x b/x' is not a hunk line"));
    CHECK(message.find("(1 of 2 old and 1 of 2 new lines read)") != std::string::npos);
  }
  SECTION("a body longer than its counts") {
    CHECK(
        parse_error(head + "@@ -1 +1 @@\n-a\n+b\n+c\n").starts_with("diff line 7: '+c' follows the hunk's last line"));
    CHECK(parse_error(head + "@@ -1,2 +1 @@\n-a\n-b\n+n\n-c\n").starts_with("diff line 8: '-c' follows"));
    CHECK(parse_error(head + "@@ -1 +1 @@\n-a\n+b\n c\n").starts_with("diff line 7: ' c' follows"));
  }
  SECTION("more lines of one kind than the header counts") {
    CHECK(parse_error(head + "@@ -1,2 +1 @@\n+a\n+b\n").starts_with("diff line 6: an added line is one too many"));
    CHECK(parse_error(head + "@@ -1 +1,2 @@\n-a\n-b\n").starts_with("diff line 6: a removed line is one too many"));
    CHECK(parse_error(head + "@@ -1 +1,2 @@\n-a\n c\n").starts_with("diff line 6: a context line is one too many"));
  }
  SECTION("line numbers that overflow 32 bits") {
    CHECK(parse_error(head + "@@ -4294967296,1 +1 @@\n") ==
          "diff line 4: bad hunk header '@@ -4294967296,1 +1 @@': the old start is larger than 4294967295");
    CHECK(
        parse_error(head + "@@ -1 +99999999999999999999999 @@\n").ends_with("the new start is larger than 4294967295"));
    CHECK(parse_error(head + "@@ -4294967295,2 +1 @@\n").ends_with("the old lines run past line 4294967295"));
  }
  SECTION("a huge count with a short body is a truncation, found without allocating the count") {
    CHECK(parse_error(head + "@@ -1,4294967295 +1,4294967295 @@\n a\n").starts_with("diff line 5: the diff ends"));
  }
  SECTION("a garbage hunk header") {
    CHECK(parse_error(head + "@@ garbage @@\n") ==
          "diff line 4: bad hunk header '@@ garbage @@': expected '@@ -OLD[,COUNT] +NEW[,COUNT] @@'");
  }
}

TEST_CASE("diff: damaged file headers are errors") {
  SECTION("a 'diff --git' line alone, at the end or before the next file") {
    const std::string message =
        "diff line 1: nothing follows this 'diff --git' line (no header lines, no hunks): the diff is truncated or "
        "damaged";
    CHECK(parse_error("diff --git a/k.cu b/k.cu\n") == message);
    CHECK(parse_error("diff --git a/k.cu b/k.cu\ndiff --git a/x b/x\nindex 1..2 100644\n") == message);
  }
  SECTION("'---' and '+++' with no hunk after them") {
    CHECK(parse_error("diff --git a/k b/k\n--- a/k\n+++ b/k\n") ==
          "diff line 3: a hunk ('@@ -OLD,COUNT +NEW,COUNT @@') must follow the '---' and '+++' lines");
    CHECK(parse_error("--- a/k\n+++ b/k\nnot a hunk\n").starts_with("diff line 3: a hunk"));
  }
  SECTION("a '---' line without '+++' inside a git file") {
    CHECK(parse_error("diff --git a/k b/k\n--- a/k\n@@ -1 +1 @@\n") ==
          "diff line 2: a '---' line must be followed by a '+++' line");
  }
  SECTION("garbage where the names should be") {
    CHECK(parse_error("diff --git garbage\nindex 1..2\n") ==
          "diff line 1: cannot read the file names of 'diff --git garbage': cannot tell where the old name ends "
          "and the new one starts");
    CHECK(parse_error("diff --git \"a/x\\q\" b/x\nindex 1..2\n").ends_with("unknown escape '\\q' in a quoted name"));
    CHECK(parse_error("diff --git a/x b/y\nindex 1..2\n")
              .ends_with("names two different files, but no 'rename' or "
                         "'copy' lines follow to say how they relate"));
    CHECK(parse_error("diff --git a/x b/x\n--- \"a/x\n+++ b/x\n@@ -1 +1 @@\n") ==
          "diff line 2: a quoted name has no closing '\"'");
  }
  SECTION("bad header values") {
    CHECK(parse_error("diff --git a/x b/x\nold mode 10064z\n") ==
          "diff line 2: '10064z' is not a file mode (like 100644)");
    CHECK(parse_error("diff --git a/x b/y\nsimilarity index 101%\nrename from x\nrename to y\n") ==
          "diff line 2: '101%' is not a percentage from 0% to 100%");
    CHECK(parse_error("diff --git a/x b/y\nrename from x\n")
              .ends_with("'rename from' without 'rename to', or the reverse"));
  }
  SECTION("a hunk outside any file, or right after a git header") {
    CHECK(parse_error("@@ -1 +1 @@\n-a\n+b\n").starts_with("diff line 1: a hunk outside any file"));
    CHECK(parse_error("diff --git a/x b/x\nindex 1..2 100644\n@@ -1 +1 @@\n") ==
          "diff line 3: a hunk without the '---' and '+++' lines that git writes before it");
  }
  SECTION("both sides /dev/null") {
    CHECK(parse_error("--- /dev/null\n+++ /dev/null\n@@ -0,0 +1 @@\n+a\n") ==
          "diff line 1: both '---' and '+++' name /dev/null");
    CHECK(parse_error("diff --git a/x b/x\nnew file mode 100644\n--- a/x\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n") ==
          "diff line 1: the header says the file was both added and deleted");
  }
}

TEST_CASE("diff: text around the files is skipped: mail headers, commit messages, signatures") {
  const std::string patch = "From 1234 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\nA message.\n---\n"s +
                            " k.cu | 2 +-\n\n" + std::string(two_files) + "-- \n2.39.5\n\n";
  const ParsedDiff diff = parse(patch);
  REQUIRE(diff.files.size() == 2);
  CHECK(diff.files[0].diff_line == 8);
  CHECK(diff.files[1].hunks[0].removed == Lines{1});
  SECTION("git log -p: commit headers and indented messages between files") {
    const std::string log = "commit abc\nAuthor: a\n\n    Message\n\n" + std::string(two_files) +
                            "\ncommit def\n\n    - a list item\n    + another\n\n" + std::string(two_files);
    const ParsedDiff logged = parse(log);
    REQUIRE(logged.files.size() == 4);
    CHECK(logged.files[3].path() == "h.cuh");
    CHECK(logged.files[2].diff_line == 32);
  }
}

TEST_CASE("diff: combined diffs of merge commits are skipped with a note") {
  const std::string text =
      "diff --cc k.cu\nindex 1,2..3\n--- a/k.cu\n+++ b/k.cu\n@@@ -1,1 -1,1 +1,1 @@@\n- a\n -b\n++c\n" +
      std::string(two_files);
  const ParsedDiff diff = parse(text);
  REQUIRE(diff.notes.size() == 1);
  CHECK(diff.notes[0] ==
        "diff line 1: skipped the combined diff 'diff --cc k.cu' of a merge commit; diff the merge against one of its "
        "parents to check it");
  REQUIRE(diff.files.size() == 2);
  CHECK(diff.files[0].diff_line == 9);
  SECTION("a diff of nothing but a combined diff is not an error") {
    const ParsedDiff only = parse("diff --combined k.cu\n@@@ -1 -1 +1 @@@\n- a\n -b\n++c\n");
    CHECK(only.files.empty());
    CHECK(only.notes.size() == 1);
  }
}

TEST_CASE("diff: a CRLF patch parses like an LF one, and CRLF content is reported") {
  std::string crlf;
  for (char c : two_files) crlf += c == '\n' ? "\r\n"s : std::string(1, c);
  const ParsedDiff diff = parse(crlf);
  REQUIRE(diff.files.size() == 2);
  CHECK(diff.files[0].path() == "k.cu");
  CHECK(diff.files[0].old_mode == "100644");
  CHECK(diff.files[0].crlf);
  CHECK(diff.files[0].hunks[0].added == Lines{4, 5});
  CHECK_FALSE(parse(two_files).files[0].crlf);
}

TEST_CASE("diff: bytes that are not UTF-8, and NUL bytes, are carried through") {
  const std::string name = "k\xff\xfe\x80.cu";
  const std::string text = "diff --git a/" + name + " b/" + name + "\n--- a/" + name + "\n+++ b/" + name +
                           "\n@@ -1 +1 @@\n-\xc3\x28\x00\n+\xff\n"s;
  REQUIRE(text.find('\0') != std::string::npos);
  const ParsedDiff diff = parse(text);
  REQUIRE(diff.files.size() == 1);
  CHECK(diff.files[0].path() == name);
  CHECK(diff.files[0].hunks[0].removed == Lines{1});
  CHECK(diff.files[0].hunks[0].added == Lines{1});
}

TEST_CASE("diff: GNU diff -u output, with timestamps and without git headers") {
  const ParsedDiff diff = parse(
      "diff -u old/src/k.cu new/src/k.cu\n"
      "--- old/src/k.cu\t2026-01-01 00:00:00.000000000 +0000\n"
      "+++ new/src/k.cu\t2026-01-02 00:00:00.000000000 +0000\n"
      "@@ -2 +2 @@\n-a\n+b\n"
      "--- k.cu.orig\n+++ k.cu\n@@ -1,0 +2 @@\n+c\n"
      "--- /dev/null\n+++ b/fresh.cu\n@@ -0,0 +1 @@\n+d\n"
      "--- a/gone.cu\n+++ /dev/null\n@@ -1 +0,0 @@\n-e\n");
  REQUIRE(diff.files.size() == 4);
  CHECK(diff.files[0].old_path == "src/k.cu");
  CHECK(diff.files[0].new_path == "src/k.cu");
  CHECK(diff.files[0].diff_line == 2);
  CHECK(diff.files[0].old_mode.empty());
  CHECK(diff.files[1].old_path == "k.cu.orig");
  CHECK(diff.files[1].new_path == "k.cu");
  CHECK(diff.files[1].kind == ChangeKind::modified);
  CHECK(diff.files[1].hunks[0].added == Lines{2});
  CHECK(diff.files[2].kind == ChangeKind::added);
  CHECK(diff.files[2].old_path.empty());
  CHECK(diff.files[2].new_path == "fresh.cu");
  CHECK(diff.files[3].kind == ChangeKind::deleted);
  CHECK(diff.files[3].old_path == "gone.cu");
  CHECK(diff.files[3].new_path.empty());
  CHECK(diff.files[3].path() == "gone.cu");
}

TEST_CASE("diff: binary files have no hunks, and a GIT binary patch is skipped whole") {
  const ParsedDiff diff = parse(
      "diff --git a/w.bin b/w.bin\nindex 1..2 100644\nGIT binary patch\nliteral 17\n"
      "YcmZQzWKPP=ODw8XNX|&iOHWM!04Xd5bN~PV\n\nliteral 9\nQcmZQzWJ=1+ODw7c00^)Gi2wiq\n\n"
      "diff --git a/n.bin b/n.bin\nnew file mode 100644\nindex 0..3\nBinary files /dev/null and b/n.bin differ\n"
      "Binary files old/r.bin and new/r.bin differ\n"
      "Binary files a/x and y and b/x and y differ\n");
  REQUIRE(diff.files.size() == 4);
  CHECK(diff.files[0].path() == "w.bin");
  CHECK(diff.files[0].binary);
  CHECK(diff.files[0].hunks.empty());
  CHECK(diff.files[0].kind == ChangeKind::modified);
  CHECK(diff.files[1].kind == ChangeKind::added);
  CHECK(diff.files[1].diff_line == 10);
  CHECK(diff.files[1].binary);
  CHECK(diff.files[1].new_mode == "100644");
  SECTION("diff -r's lone 'Binary files ... differ' line is a file too") {
    CHECK(diff.files[2].binary);
    CHECK(diff.files[2].path() == "r.bin");
    CHECK(diff.files[2].diff_line == 14);
    CHECK(diff.files[3].path() == "x and y");
  }
}

TEST_CASE("diff: quoted names in '---'/'+++' and rename lines are unquoted") {
  const ParsedDiff diff = parse(
      "diff --git a/plain.cu \"b/t\\303\\251st \\\"q\\\".cu\"\nsimilarity index 90%\nrename from plain.cu\n"
      "rename to \"t\\303\\251st \\\"q\\\".cu\"\n--- a/plain.cu\n+++ \"b/t\\303\\251st \\\"q\\\".cu\"\n"
      "@@ -1 +1 @@\n-a\n+b\n");
  REQUIRE(diff.files.size() == 1);
  CHECK(diff.files[0].kind == ChangeKind::renamed);
  CHECK(diff.files[0].old_path == "plain.cu");
  CHECK(diff.files[0].new_path == "t\xc3\xa9st \"q\".cu");
  CHECK(diff.files[0].similarity == 90);
}

TEST_CASE("diff: to_string names every change kind") {
  CHECK(to_string(ChangeKind::modified) == "modified");
  CHECK(to_string(ChangeKind::added) == "added");
  CHECK(to_string(ChangeKind::deleted) == "deleted");
  CHECK(to_string(ChangeKind::renamed) == "renamed");
  CHECK(to_string(ChangeKind::copied) == "copied");
}
