// SPDX-License-Identifier: Apache-2.0
#include "diff/git_header.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "diff/diagnostic.hpp"
#include "diff/git_path.hpp"

namespace kforecast::diff {
namespace {

bool take(std::string_view& text, std::string_view token) {
  if (!text.starts_with(token)) return false;
  text.remove_prefix(token.size());
  return true;
}

bool is_mode(std::string_view text) {
  return !text.empty() && text.size() <= 6 &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '7'; });
}

Result<void> read_mode(std::string_view text, std::uint32_t number, std::string& mode) {
  if (!is_mode(text)) return error_at(number, fmt::format("'{}' is not a file mode (like 100644)", excerpt(text)));
  mode = text;
  return {};
}

Result<void> read_path(std::string_view text, std::uint32_t number, std::optional<std::string>& path) {
  auto name = parse_path_field(text);
  if (!name) return error_at(number, name.error());
  path = std::move(*name);
  return {};
}

// "93%": 0 to 100.
Result<void> read_percent(std::string_view text, std::uint32_t number, int& percent) {
  int value = 0;
  std::size_t digits = 0;
  while (digits < text.size() && digits < 3 && text[digits] >= '0' && text[digits] <= '9')
    value = value * 10 + (text[digits++] - '0');
  if (digits == 0 || text.substr(digits) != "%" || value > 100)
    return error_at(number, fmt::format("'{}' is not a percentage from 0% to 100%", excerpt(text)));
  percent = value;
  return {};
}

// "index 1a2b3c4..5d6e7f8 100644": the mode is there only when it did not change.
void read_index(std::string_view text, FileDiff& file) {
  const auto dots = text.find("..");
  const auto hashes_end = std::min(text.find(' '), text.size());
  if (dots != std::string_view::npos && dots < hashes_end) {
    file.old_blob = text.substr(0, dots);
    file.new_blob = text.substr(dots + 2, hashes_end - dots - 2);
  }
  const auto space = text.rfind(' ');
  if (space == std::string_view::npos || !is_mode(text.substr(space + 1))) return;
  const std::string_view mode = text.substr(space + 1);
  if (file.old_mode.empty()) file.old_mode = mode;
  if (file.new_mode.empty()) file.new_mode = mode;
}

}  // namespace

Result<HeaderLine> read_extended_line(std::string_view line, std::uint32_t number, GitHeader& header, FileDiff& file) {
  Result<void> read;
  std::string_view rest = line;
  int dissimilarity = 0;
  if (take(rest, "old mode ")) {
    read = read_mode(rest, number, file.old_mode);
  } else if (take(rest, "new mode ")) {
    read = read_mode(rest, number, file.new_mode);
  } else if (take(rest, "deleted file mode ")) {
    header.deleted_file = true;
    read = read_mode(rest, number, file.old_mode);
  } else if (take(rest, "new file mode ")) {
    header.new_file = true;
    read = read_mode(rest, number, file.new_mode);
  } else if (take(rest, "rename from ") || take(rest, "rename old ")) {  // "rename old": git before 1.5
    read = read_path(rest, number, header.rename_from);
  } else if (take(rest, "rename to ") || take(rest, "rename new ")) {
    read = read_path(rest, number, header.rename_to);
  } else if (take(rest, "copy from ")) {
    read = read_path(rest, number, header.copy_from);
  } else if (take(rest, "copy to ")) {
    read = read_path(rest, number, header.copy_to);
  } else if (take(rest, "similarity index ")) {
    read = read_percent(rest, number, file.similarity);
  } else if (take(rest, "dissimilarity index ")) {  // from -B: a rewrite, still reported as modified
    read = read_percent(rest, number, dissimilarity);
  } else if (take(rest, "index ")) {
    read_index(rest, file);
  } else {
    return HeaderLine::other;
  }
  if (!read) return std::unexpected(read.error());
  return HeaderLine::extended;
}

Result<void> finish_git_file(const GitHeader& header, FileDiff& file) {
  const auto unpaired = [&](std::string_view kind) {
    return error_at(file.diff_line, fmt::format("the header has '{0} from' without '{0} to', or the reverse", kind));
  };
  if (header.rename_from || header.rename_to) {
    if (!header.rename_from || !header.rename_to) return unpaired("rename");
    file.kind = ChangeKind::renamed;
    file.old_path = *header.rename_from;
    file.new_path = *header.rename_to;
  } else if (header.copy_from || header.copy_to) {
    if (!header.copy_from || !header.copy_to) return unpaired("copy");
    file.kind = ChangeKind::copied;
    file.old_path = *header.copy_from;
    file.new_path = *header.copy_to;
  } else {
    auto names = split_git_names(header.names);
    if (!names)
      return error_at(file.diff_line, fmt::format("cannot read the file names of 'diff --git {}': {}",
                                                  excerpt(header.names), names.error()));
    auto path = shared_path(names->first, names->second);
    if (!path)
      return error_at(file.diff_line, fmt::format("'diff --git {}' names two different files, but no 'rename' or "
                                                  "'copy' lines follow to say how they relate",
                                                  excerpt(header.names)));
    file.old_path = *path;
    file.new_path = std::move(*path);
  }
  const bool deleted = header.deleted_file || header.new_is_dev_null;
  const bool added = header.new_file || header.old_is_dev_null;
  if (deleted && added) return error_at(file.diff_line, "the header says the file was both added and deleted");
  if (deleted) {
    file.kind = ChangeKind::deleted;
    file.new_path.clear();
  } else if (added) {
    file.kind = ChangeKind::added;
    file.old_path.clear();
  }
  return {};
}

}  // namespace kforecast::diff
