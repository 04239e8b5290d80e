// SPDX-License-Identifier: Apache-2.0
#pragma once

// The first stage of the pipeline: a unified diff (git diff, git format-patch, GNU diff -u) as per-file records
// of changed line numbers. Pure: the text comes from the caller; src/git is what runs git.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace kforecast::diff {

enum class ChangeKind { modified, added, deleted, renamed, copied };

// One "@@ -old_start,old_count +new_start,new_count @@" block. Where a count is 0 that side has
// no lines here and its start is the line before the change ("-0,0" for an empty file). Context
// lines are not kept: only the numbers of changed lines, ascending, so a large diff stays small.
struct Hunk {
  std::uint32_t old_start = 0;
  std::uint32_t old_count = 0;
  std::uint32_t new_start = 0;
  std::uint32_t new_count = 0;
  std::vector<std::uint32_t> removed;  // numbered in the old (base) version
  std::vector<std::uint32_t> added;    // numbered in the new (head) version
};

struct FileDiff {
  // Repository-relative bytes, unquoted, without git's "a/" and "b/" prefixes. old_path is empty
  // for an added file and new_path for a deleted one.
  std::string old_path;
  std::string new_path;
  ChangeKind kind = ChangeKind::modified;
  int similarity = -1;  // percent, from "similarity index" (renames and copies); -1 where absent
  // Octal modes as git writes them ("100644", "100755", "120000" for a symlink); equal when the
  // mode did not change, empty where the diff does not say (GNU diff never does).
  std::string old_mode;
  std::string new_mode;
  // Blob hashes from git's "index OLD..NEW" line, as written (abbreviated unless the diff was made
  // with --full-index); all zeros for the missing side of an added or deleted file; empty where
  // the diff has no index line.
  std::string old_blob;
  std::string new_blob;
  bool binary = false;                     // git said "Binary files ... differ" or sent a "GIT binary patch": no hunks
  bool crlf = false;                       // some content line of a hunk ends in "\r\n"
  bool old_missing_final_newline = false;  // "\ No newline at end of file" after an old line
  bool new_missing_final_newline = false;  // ... after a new line
  std::vector<Hunk> hunks;
  std::uint32_t diff_line = 0;  // where the file's header starts in the diff, for messages

  // The name to show for this file: the new path, or the old one for a deleted file.
  const std::string& path() const { return kind == ChangeKind::deleted ? old_path : new_path; }
};

struct ParsedDiff {
  std::vector<FileDiff> files;
  // What was read but not turned into a FileDiff, each naming its diff line (combined diffs of
  // merge commits are skipped, not guessed at).
  std::vector<std::string> notes;
};

// Parses `text`, which may hold any bytes. Text before, between and after the files (a mail
// header, a commit message, a signature) is skipped. Empty text is an empty diff; other text
// without any file is an Error, as is a hunk whose body disagrees with its line counts. Error
// messages start "diff line N: " and carry ExitCode::usage. Nothing returned points into `text`.
Result<ParsedDiff> parse_unified_diff(std::string_view text);

// "modified", "added", "deleted", "renamed", "copied".
std::string_view to_string(ChangeKind kind);

}  // namespace kforecast::diff
