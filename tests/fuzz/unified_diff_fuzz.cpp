// SPDX-License-Identifier: Apache-2.0
// Fuzz target: a patch file or standard input can hold anything. Any input must give a
// ParsedDiff or an Error with a message, never a crash or a hang; and a ParsedDiff must keep the
// promises later stages rely on. A broken promise aborts, so the fuzzer reports it.

#include <cstdint>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "diff/changed_lines.hpp"
#include "diff/unified_diff.hpp"

namespace {

void require(bool promise) {
  if (!promise) std::abort();
}

// Changed lines lie inside their hunk's range, ascending, no more of them than the count.
void check_side(const std::vector<std::uint32_t>& lines, std::uint32_t start, std::uint32_t count) {
  require(lines.size() <= count);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    require(lines[i] >= start && lines[i] - start < count);
    if (i > 0) require(lines[i - 1] < lines[i]);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::diff;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = parse_unified_diff(text);
  if (!parsed) {
    require(parsed.error().message.starts_with("diff line "));
    return 0;
  }
  for (const FileDiff& file : parsed->files) {
    require(file.diff_line >= 1);
    require(file.old_path.empty() == (file.kind == ChangeKind::added));
    require(file.new_path.empty() == (file.kind == ChangeKind::deleted));
    require(!file.binary || file.hunks.empty());
    require(file.similarity >= -1 && file.similarity <= 100);
    for (const Hunk& hunk : file.hunks) {
      check_side(hunk.removed, hunk.old_start, hunk.old_count);
      check_side(hunk.added, hunk.new_start, hunk.new_count);
      for (std::uint32_t line : hunk.added) require(touches_new_line(file, line));
    }
  }
  return 0;
}
