// SPDX-License-Identifier: Apache-2.0
#include "diff/changed_lines.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::diff;
using Lines = std::vector<std::uint32_t>;

namespace {
FileDiff two_hunks() {
  FileDiff file;
  file.old_path = file.new_path = "k.cu";
  file.hunks.push_back(
      Hunk{.old_start = 3, .old_count = 4, .new_start = 3, .new_count = 5, .removed = {4}, .added = {4, 5}});
  file.hunks.push_back(
      Hunk{.old_start = 20, .old_count = 3, .new_start = 21, .new_count = 2, .removed = {20, 22}, .added = {22}});
  return file;
}
}  // namespace

TEST_CASE("diff: single-line queries look at one side each") {
  const FileDiff file = two_hunks();
  CHECK(touches_new_line(file, 4));
  CHECK(touches_new_line(file, 5));
  CHECK(touches_new_line(file, 22));
  CHECK_FALSE(touches_new_line(file, 3));
  CHECK_FALSE(touches_new_line(file, 20));
  CHECK(touches_old_line(file, 20));
  CHECK(touches_old_line(file, 22));
  CHECK_FALSE(touches_old_line(file, 5));
  CHECK_FALSE(touches_new_line(FileDiff{}, 1));
}

TEST_CASE("diff: range queries return the changed lines inside the range, inclusive") {
  const FileDiff file = two_hunks();
  CHECK(changed_new_lines_in(file, 1, 100) == Lines{4, 5, 22});
  CHECK(changed_new_lines_in(file, 5, 22) == Lines{5, 22});
  CHECK(changed_new_lines_in(file, 6, 21).empty());
  CHECK(changed_new_lines_in(file, 22, 5).empty());
  CHECK(changed_old_lines_in(file, 4, 20) == Lines{4, 20});
  CHECK(changed_old_lines_in(file, 21, 4294967295u) == Lines{22});
  SECTION("hunks out of order still give ascending lines, each once") {
    FileDiff shuffled = two_hunks();
    std::swap(shuffled.hunks[0], shuffled.hunks[1]);
    shuffled.hunks.push_back(shuffled.hunks[0]);
    CHECK(changed_new_lines_in(shuffled, 1, 100) == Lines{4, 5, 22});
  }
}
