// SPDX-License-Identifier: Apache-2.0
#include "diff/changed_lines.hpp"

#include <algorithm>

namespace kforecast::diff {
namespace {

enum class Side { old_version, new_version };

const std::vector<std::uint32_t>& lines_of(const Hunk& hunk, Side side) {
  return side == Side::old_version ? hunk.removed : hunk.added;
}

// Hunks are scanned one by one: the parser does not require them in order (git writes them in
// order, hand-edited patches may not), and a file rarely has more than a few dozen.
std::vector<std::uint32_t> lines_in(const FileDiff& file, Side side, std::uint32_t first, std::uint32_t last) {
  std::vector<std::uint32_t> found;
  if (first > last) return found;
  for (const Hunk& hunk : file.hunks) {
    const auto& lines = lines_of(hunk, side);
    auto begin = std::lower_bound(lines.begin(), lines.end(), first);
    auto end = std::upper_bound(begin, lines.end(), last);
    found.insert(found.end(), begin, end);
  }
  if (!std::is_sorted(found.begin(), found.end())) std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

bool touches(const FileDiff& file, Side side, std::uint32_t line) {
  return std::any_of(file.hunks.begin(), file.hunks.end(), [&](const Hunk& hunk) {
    const auto& lines = lines_of(hunk, side);
    return std::binary_search(lines.begin(), lines.end(), line);
  });
}

}  // namespace

bool touches_new_line(const FileDiff& file, std::uint32_t line) { return touches(file, Side::new_version, line); }
bool touches_old_line(const FileDiff& file, std::uint32_t line) { return touches(file, Side::old_version, line); }

std::vector<std::uint32_t> changed_new_lines_in(const FileDiff& file, std::uint32_t first, std::uint32_t last) {
  return lines_in(file, Side::new_version, first, last);
}
std::vector<std::uint32_t> changed_old_lines_in(const FileDiff& file, std::uint32_t first, std::uint32_t last) {
  return lines_in(file, Side::old_version, first, last);
}

}  // namespace kforecast::diff
