// SPDX-License-Identifier: Apache-2.0
#pragma once

// The extended header lines git writes between "diff --git" and a file's first hunk (see
// git-diff(1), "Generating patch text with -p"): modes, renames, copies, similarity, index.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/error.hpp"
#include "diff/unified_diff.hpp"

namespace kforecast::diff {

struct GitHeader {
  std::string names;  // the text after "diff --git ", split once the header is read
  std::optional<std::string> rename_from, rename_to, copy_from, copy_to;
  bool new_file = false;
  bool deleted_file = false;
  bool old_is_dev_null = false;  // "--- /dev/null" or "Binary files /dev/null and ..."
  bool new_is_dev_null = false;
};

enum class HeaderLine { extended, other };

// Reads `line` (diff line `number`) into header and file if it is an extended header line;
// HeaderLine::other when it is not one, which ends the header. Malformed values are Errors.
Result<HeaderLine> read_extended_line(std::string_view line, std::uint32_t number, GitHeader& header, FileDiff& file);

// Sets file's paths and kind from what the header said; errors name file.diff_line.
Result<void> finish_git_file(const GitHeader& header, FileDiff& file);

}  // namespace kforecast::diff
