// SPDX-License-Identifier: Apache-2.0
#include "diff/hunk.hpp"

#include <fmt/format.h>

#include <limits>

#include "diff/diagnostic.hpp"

namespace kforecast::diff {
namespace {

constexpr std::uint64_t max_line = std::numeric_limits<std::uint32_t>::max();

// Reads decimal digits from the front of `text`, consuming them.
std::expected<std::uint32_t, std::string> take_number(std::string_view& text, std::string_view what) {
  std::size_t digits = 0;
  std::uint64_t value = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    value = value * 10 + static_cast<std::uint64_t>(text[digits] - '0');
    if (value > max_line) return std::unexpected(fmt::format("{} is larger than {}", what, max_line));
    ++digits;
  }
  if (digits == 0) return std::unexpected(fmt::format("{} is missing", what));
  text.remove_prefix(digits);
  return static_cast<std::uint32_t>(value);
}

bool take(std::string_view& text, std::string_view token) {
  if (!text.starts_with(token)) return false;
  text.remove_prefix(token.size());
  return true;
}

// One side of the header: START[,COUNT], checked so that every line number it implies fits.
std::expected<void, std::string> take_range(std::string_view& text, std::string_view side, std::uint32_t& start,
                                            std::uint32_t& count) {
  auto first = take_number(text, fmt::format("the {} start", side));
  if (!first) return std::unexpected(first.error());
  start = *first;
  count = 1;
  if (take(text, ",")) {
    auto number = take_number(text, fmt::format("the {} count", side));
    if (!number) return std::unexpected(number.error());
    count = *number;
  }
  if (count > 0 && start == 0) return std::unexpected(fmt::format("the {} side counts lines from line 0", side));
  if (count > 0 && std::uint64_t{start} + count - 1 > max_line)
    return std::unexpected(fmt::format("the {} lines run past line {}", side, max_line));
  return {};
}

std::string describe(const Hunk& hunk) {
  return fmt::format("@@ -{},{} +{},{} @@", hunk.old_start, hunk.old_count, hunk.new_start, hunk.new_count);
}

}  // namespace

std::expected<HunkHeader, std::string> parse_hunk_header(std::string_view line) {
  constexpr std::string_view expected = "expected '@@ -OLD[,COUNT] +NEW[,COUNT] @@'";
  HunkHeader header;
  std::string_view rest = line;
  if (!take(rest, "@@ -")) return std::unexpected(std::string(expected));
  if (auto old_side = take_range(rest, "old", header.old_start, header.old_count); !old_side)
    return std::unexpected(old_side.error());
  if (!take(rest, " +")) return std::unexpected(std::string(expected));
  if (auto new_side = take_range(rest, "new", header.new_start, header.new_count); !new_side)
    return std::unexpected(new_side.error());
  if (!take(rest, " @@")) return std::unexpected(std::string(expected));
  return header;
}

Result<void> read_hunk(LineCursor& cursor, FileDiff& file) {
  const std::uint32_t header_line = cursor.number();
  auto header = parse_hunk_header(cursor.line());
  if (!header)
    return error_at(header_line, fmt::format("bad hunk header '{}': {}", excerpt(cursor.line()), header.error()));
  Hunk& hunk = file.hunks.emplace_back();
  hunk.old_start = header->old_start;
  hunk.old_count = header->old_count;
  hunk.new_start = header->new_start;
  hunk.new_count = header->new_count;

  std::uint32_t old_left = hunk.old_count, new_left = hunk.new_count;
  std::uint32_t old_line = hunk.old_start, new_line = hunk.new_start;
  const auto mismatch = [&](std::string_view what) {
    return error_at(cursor.at_end() ? cursor.number() - 1 : cursor.number(),
                    fmt::format("{}, in the hunk '{}' that starts at diff line {} ({} of {} old and {} of {} new "
                                "lines read): the diff is truncated, or was edited without fixing the hunk's counts",
                                what, describe(hunk), header_line, hunk.old_count - old_left, hunk.old_count,
                                hunk.new_count - new_left, hunk.new_count));
  };

  // What the previous body line was, for a "\ No newline at end of file" marker after it.
  char previous = '\0';
  for (cursor.advance(); !cursor.at_end(); cursor.advance()) {
    const std::string_view line = cursor.line();
    // GNU diff and git apply read an empty line as an empty context line whose space was lost.
    const char kind = line.empty() ? ' ' : line.front();
    if (kind == '\\') {
      if (previous == '-' || previous == ' ') file.old_missing_final_newline = true;
      if (previous == '+' || previous == ' ') file.new_missing_final_newline = true;
      continue;
    }
    if (old_left == 0 && new_left == 0) break;
    if (kind == ' ') {
      if (old_left == 0 || new_left == 0) return mismatch("a context line is one too many");
      --old_left, --new_left, ++old_line, ++new_line;
    } else if (kind == '-') {
      if (old_left == 0) return mismatch("a removed line is one too many");
      hunk.removed.push_back(old_line++);
      --old_left;
    } else if (kind == '+') {
      if (new_left == 0) return mismatch("an added line is one too many");
      hunk.added.push_back(new_line++);
      --new_left;
    } else {
      return mismatch(fmt::format("'{}' is not a hunk line (' ', '-', '+' or '\\')", excerpt(line)));
    }
    if (cursor.ends_in_cr()) file.crlf = true;
    previous = kind;
  }
  if (old_left != 0 || new_left != 0) return mismatch("the diff ends");

  // A body longer than its counts shows as a stray hunk line right after it. "-- " ends a
  // format-patch mail, and "--- " before "+++ " starts the next file of a GNU diff.
  const std::string_view next = cursor.line();
  if (next.empty() || next == "-- ") return {};
  if (next.starts_with("--- ") && cursor.peek().starts_with("+++ ")) return {};
  if (next.front() == ' ' || next.front() == '-' || next.front() == '+')
    return mismatch(fmt::format("'{}' follows the hunk's last line", excerpt(next)));
  return {};
}

}  // namespace kforecast::diff
