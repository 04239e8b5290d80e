// SPDX-License-Identifier: Apache-2.0
#pragma once

// One hunk: its "@@" header and the body lines that the header's counts announce.

#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

#include "base/error.hpp"
#include "diff/line_cursor.hpp"
#include "diff/unified_diff.hpp"

namespace kforecast::diff {

struct HunkHeader {
  std::uint32_t old_start = 0;
  std::uint32_t old_count = 0;
  std::uint32_t new_start = 0;
  std::uint32_t new_count = 0;
};

// Parses "@@ -OLD[,COUNT] +NEW[,COUNT] @@[ section heading]" (an omitted count is 1). Refuses
// numbers that overflow 32 bits, a start of 0 with lines to count, and a range past 2^32 - 1.
// On failure: the reason, without a line number.
std::expected<HunkHeader, std::string> parse_hunk_header(std::string_view line);

// With the cursor on a "@@" line: appends the hunk to file.hunks and leaves the cursor on the
// first line after the hunk's body and its "\ No newline at end of file" markers. A body that
// disagrees with the counts is an Error naming the diff line where that shows.
Result<void> read_hunk(LineCursor& cursor, FileDiff& file);

}  // namespace kforecast::diff
