// SPDX-License-Identifier: Apache-2.0
// The parse of diffs that the real git (and GNU diff) wrote: fixtures/diff/make_fixtures.sh
// made each one in a scratch repository; fixtures/diff/README.md says how.
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "diff/changed_lines.hpp"
#include "diff/unified_diff.hpp"

using namespace kforecast::diff;
using Lines = std::vector<std::uint32_t>;

namespace {
ParsedDiff parse_fixture(const std::string& name) {
  std::ifstream in(std::string(KF_SOURCE_DIR) + "/fixtures/diff/" + name, std::ios::binary);
  REQUIRE(in.good());
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto parsed = parse_unified_diff(text);
  if (!parsed) FAIL(parsed.error().message);
  CHECK(parsed->notes.empty() == (name != "combined.diff"));
  return *parsed;
}
}  // namespace

TEST_CASE("diff: git's rename with an edit keeps both paths and the similarity") {
  const auto diff = parse_fixture("rename_similarity.diff");
  REQUIRE(diff.files.size() == 1);
  const FileDiff& file = diff.files[0];
  CHECK(file.kind == ChangeKind::renamed);
  CHECK(file.old_path == "gemm.cu");
  CHECK(file.new_path == "gemm_tiled.cu");
  CHECK(file.similarity == 96);
  CHECK(file.old_mode == "100644");
  REQUIRE(file.hunks.size() == 1);
  CHECK(file.hunks[0].old_start == 4);
  CHECK(file.hunks[0].new_count == 7);
  CHECK(file.hunks[0].removed == Lines{7});
  CHECK(file.hunks[0].added == Lines{7});
}

TEST_CASE("diff: git diff -C -C reports a copy from an unchanged file") {
  const auto diff = parse_fixture("copy.diff");
  REQUIRE(diff.files.size() == 1);
  const FileDiff& file = diff.files[0];
  CHECK(file.kind == ChangeKind::copied);
  CHECK(file.old_path == "attention.cu");
  CHECK(file.new_path == "attention_v2.cu");
  CHECK(file.similarity == 96);
  CHECK(file.hunks.at(0).added == Lines{3});
  CHECK(touches_new_line(file, 3));
  CHECK_FALSE(touches_new_line(file, 4));
}

TEST_CASE("diff: mode changes, alone and with an edit") {
  const auto diff = parse_fixture("mode_change.diff");
  REQUIRE(diff.files.size() == 2);
  const FileDiff& edited = diff.files[0];
  CHECK(edited.path() == "attention.cu");
  CHECK(edited.kind == ChangeKind::modified);
  CHECK(edited.old_mode == "100644");
  CHECK(edited.new_mode == "100755");
  CHECK(edited.hunks.at(0).removed == Lines{30});
  CHECK(edited.hunks.at(0).added == Lines{30});
  const FileDiff& mode_only = diff.files[1];
  CHECK(mode_only.path() == "util.cuh");
  CHECK(mode_only.diff_line == 13);
  CHECK(mode_only.old_mode == "100644");
  CHECK(mode_only.new_mode == "100755");
  CHECK(mode_only.hunks.empty());
}

TEST_CASE("diff: binary files, summarised and as a GIT binary patch") {
  for (const char* name : {"binary.diff", "binary_patch.diff"}) {
    INFO(name);
    const auto diff = parse_fixture(name);
    REQUIRE(diff.files.size() == 1);
    CHECK(diff.files[0].path() == "blob.bin");
    CHECK(diff.files[0].binary);
    CHECK(diff.files[0].hunks.empty());
    CHECK(diff.files[0].kind == ChangeKind::modified);
    CHECK(diff.files[0].new_mode == "100644");
  }
}

TEST_CASE("diff: the no-newline-at-end-of-file marker on either side") {
  const auto diff = parse_fixture("no_newline.diff");
  REQUIRE(diff.files.size() == 1);
  const FileDiff& file = diff.files[0];
  CHECK(file.old_missing_final_newline);
  CHECK(file.new_missing_final_newline);
  REQUIRE(file.hunks.size() == 1);
  CHECK(file.hunks[0].old_count == 1);
  CHECK(file.hunks[0].new_count == 2);
  CHECK(file.hunks[0].removed == Lines{1});
  CHECK(file.hunks[0].added == Lines{1, 2});
}

TEST_CASE("diff: a file with CRLF lines") {
  const auto diff = parse_fixture("crlf.diff");
  REQUIRE(diff.files.size() == 1);
  CHECK(diff.files[0].crlf);
  CHECK(diff.files[0].path() == "windows.cu");
  CHECK(diff.files[0].hunks.at(0).removed == Lines{2});
  CHECK(diff.files[0].hunks.at(0).added == Lines{2, 4});
}

TEST_CASE("diff: paths with spaces, edited in place and renamed") {
  const auto diff = parse_fixture("spaces.diff");
  REQUIRE(diff.files.size() == 2);
  CHECK(diff.files[0].old_path == "dir with space/x y.cu");
  CHECK(diff.files[0].new_path == "dir with space/x y.cu");
  CHECK(diff.files[0].hunks.at(0).added == Lines{2});
  CHECK(diff.files[1].kind == ChangeKind::renamed);
  CHECK(diff.files[1].old_path == "to rename.cu");
  CHECK(diff.files[1].new_path == "renamed file.cu");
  CHECK(diff.files[1].similarity == 100);
  CHECK(diff.files[1].hunks.empty());
}

TEST_CASE("diff: a non-ASCII path that git quoted with octal escapes") {
  const auto diff = parse_fixture("quoted_path.diff");
  REQUIRE(diff.files.size() == 1);
  CHECK(diff.files[0].old_path == "t\xc3\xa9st.cu");
  CHECK(diff.files[0].new_path == "t\xc3\xa9st.cu");
  CHECK(diff.files[0].hunks.at(0).added == Lines{4});
}

TEST_CASE("diff: added, empty added and deleted files") {
  const auto diff = parse_fixture("added_deleted.diff");
  REQUIRE(diff.files.size() == 3);
  const FileDiff& deleted = diff.files[0];
  CHECK(deleted.kind == ChangeKind::deleted);
  CHECK(deleted.old_path == "doomed.cu");
  CHECK(deleted.new_path.empty());
  CHECK(deleted.old_mode == "100644");
  CHECK(deleted.hunks.at(0).removed == Lines{1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  CHECK(deleted.hunks.at(0).new_start == 0);
  const FileDiff& empty = diff.files[1];
  CHECK(empty.kind == ChangeKind::added);
  CHECK(empty.new_path == "empty.cu");
  CHECK(empty.old_path.empty());
  CHECK(empty.hunks.empty());
  const FileDiff& fresh = diff.files[2];
  CHECK(fresh.kind == ChangeKind::added);
  CHECK(fresh.new_path == "fresh.cu");
  CHECK(fresh.new_mode == "100644");
  CHECK(fresh.hunks.at(0).added == Lines{1, 2, 3});
}

TEST_CASE("diff: a merge's combined diff is noted and skipped, and the two-way diff after it is read") {
  const auto diff = parse_fixture("combined.diff");
  REQUIRE(diff.notes.size() == 1);
  CHECK(diff.notes[0].starts_with("diff line 1: skipped the combined diff 'diff --cc attention.cu'"));
  REQUIRE(diff.files.size() == 1);
  CHECK(diff.files[0].diff_line == 15);
  CHECK(diff.files[0].new_mode == "100755");
  CHECK(diff.files[0].hunks.at(0).removed == Lines{10});
  CHECK(diff.files[0].hunks.at(0).added == Lines{10});
}

TEST_CASE("diff: git format-patch output, with its mail header and signature") {
  const auto diff = parse_fixture("format_patch.diff");
  REQUIRE(diff.files.size() == 2);
  CHECK(diff.files[0].path() == "attention.cu");
  CHECK(diff.files[0].diff_line == 11);
  CHECK(diff.files[0].hunks.at(0).added == Lines{10});
  CHECK(diff.files[1].path() == "util.cuh");
  CHECK(diff.files[1].hunks.at(0).removed == Lines{1});
}

TEST_CASE("diff: GNU diff -ruN between two directories") {
  const auto diff = parse_fixture("gnu_diff_u.diff");
  REQUIRE(diff.files.size() == 3);
  CHECK(diff.files[0].kind == ChangeKind::added);
  CHECK(diff.files[0].new_path == "src/added.cu");
  CHECK(diff.files[0].hunks.at(0).added == Lines{1, 2});
  CHECK(diff.files[1].kind == ChangeKind::deleted);
  CHECK(diff.files[1].old_path == "src/gone.cu");
  CHECK(diff.files[2].kind == ChangeKind::modified);
  CHECK(diff.files[2].path() == "src/k.cu");
  CHECK(diff.files[2].hunks.at(0).removed == Lines{5});
  CHECK(diff.files[2].old_mode.empty());
}
