// SPDX-License-Identifier: Apache-2.0
#include "diff/unified_diff.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <limits>
#include <optional>

#include "diff/diagnostic.hpp"
#include "diff/git_header.hpp"
#include "diff/git_path.hpp"
#include "diff/hunk.hpp"
#include "diff/line_cursor.hpp"

namespace kforecast::diff {
namespace {

constexpr std::string_view dev_null = "/dev/null";

bool starts_git_file(std::string_view line) {
  return line.starts_with("diff --git ") || line.starts_with("diff --cc ") || line.starts_with("diff --combined ");
}

// The data lines of a "GIT binary patch": "literal N" or "delta N", base85 lines that start
// with a length letter, and blank separators.
bool is_binary_patch_line(std::string_view line) {
  static constexpr auto base85 = [] {
    std::array<bool, 256> table{};
    for (unsigned char c : std::string_view("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                            "!#$%&()*+-;<=>?@^_`{|}~"))
      table[c] = true;
    return table;
  }();
  if (line.empty() || line.starts_with("literal ") || line.starts_with("delta ")) return true;
  const char length = line.front();
  if (!((length >= 'A' && length <= 'Z') || (length >= 'a' && length <= 'z'))) return false;
  return std::all_of(line.begin(), line.end(), [](char c) { return base85[static_cast<unsigned char>(c)]; });
}

// diff -r's "Binary files OLD and NEW differ". Two paths of at most PATH_MAX (4096) bytes fit
// well within the length limit, which keeps the search for the " and " between them cheap.
bool is_plain_binary_line(std::string_view line) {
  return line.size() > 20 && line.size() < 16384 && line.starts_with("Binary files ") && line.ends_with(" differ");
}

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }

struct FileNames {
  std::string old_name;
  std::string new_name;
};

// One pass over the text. Between files it skips what is not a diff (mail headers, commit
// messages, "diff -ruN" command lines); inside a file it is strict, so that a damaged diff is an
// Error rather than a file silently lost or mis-numbered.
class Parser {
 public:
  explicit Parser(std::string_view text) : m_cursor(text) {}

  Result<ParsedDiff> run() {
    bool saw_text = false;
    while (!m_cursor.at_end()) {
      const std::string_view line = m_cursor.line();
      Result<void> read;
      if (line.starts_with("diff --git ")) {
        read = read_git_file();
      } else if (starts_git_file(line)) {
        skip_combined_diff();
      } else if (line.starts_with("--- ") && m_cursor.peek().starts_with("+++ ")) {
        read = read_plain_file();
      } else if (line.starts_with("@@ -")) {
        return error_at(m_cursor.number(),
                        "a hunk outside any file: expected a 'diff --git' line or '---' and '+++' lines before it");
      } else if (is_plain_binary_line(line) && read_plain_binary(line)) {
        m_cursor.advance();
      } else {
        saw_text = saw_text || !is_blank(line);
        m_cursor.advance();
      }
      if (!read) return std::unexpected(read.error());
    }
    if (saw_text && m_diff.files.empty() && m_diff.notes.empty())
      return error_at(1,
                      "no file diffs found (no 'diff --git' line, and no '---' line followed by '+++'): is this a "
                      "unified diff?");
    return std::move(m_diff);
  }

 private:
  Result<void> read_git_file() {
    FileDiff file;
    file.diff_line = m_cursor.number();
    GitHeader header{.names = std::string(m_cursor.line().substr(std::string_view("diff --git ").size()))};
    bool has_body = false;  // anything after the "diff --git" line that belongs to it
    for (m_cursor.advance(); !m_cursor.at_end(); m_cursor.advance()) {
      const std::string_view line = m_cursor.line();
      if (line.starts_with("diff ")) break;
      if (line.starts_with("--- ")) {
        auto names = read_name_lines();
        if (!names) return std::unexpected(names.error());
        header.old_is_dev_null = names->old_name == dev_null;
        header.new_is_dev_null = names->new_name == dev_null;
        if (auto hunks = read_hunks(file); !hunks) return hunks;
        has_body = true;
        break;
      }
      if (line.starts_with("@@ "))
        return error_at(m_cursor.number(), "a hunk without the '---' and '+++' lines that git writes before it");
      if (line.starts_with("Binary files ")) {
        file.binary = has_body = true;
        header.old_is_dev_null = line.starts_with("Binary files /dev/null and ");
        header.new_is_dev_null = line.ends_with(" and /dev/null differ");
        m_cursor.advance();
        break;
      }
      if (line == "GIT binary patch") {
        file.binary = has_body = true;
        for (m_cursor.advance(); !m_cursor.at_end() && is_binary_patch_line(m_cursor.line());) m_cursor.advance();
        break;
      }
      auto extended = read_extended_line(line, m_cursor.number(), header, file);
      if (!extended) return std::unexpected(extended.error());
      if (*extended == HeaderLine::other) break;
      has_body = true;
    }
    if (!has_body)
      return error_at(file.diff_line,
                      "nothing follows this 'diff --git' line (no header lines, no hunks): the diff "
                      "is truncated or damaged");
    if (auto finished = finish_git_file(header, file); !finished) return finished;
    m_diff.files.push_back(std::move(file));
    return {};
  }

  // A GNU diff -u file: "--- OLD[\tTIME]", "+++ NEW[\tTIME]", hunks. No modes, renames or binary.
  Result<void> read_plain_file() {
    FileDiff file;
    file.diff_line = m_cursor.number();
    auto names = read_name_lines();
    if (!names) return std::unexpected(names.error());
    const bool old_missing = names->old_name == dev_null, new_missing = names->new_name == dev_null;
    if (old_missing && new_missing) return error_at(file.diff_line, "both '---' and '+++' name /dev/null");
    if (auto hunks = read_hunks(file); !hunks) return hunks;
    // diff -N writes an absent file as an empty one (dated 1970) rather than /dev/null; a lone
    // hunk from or to nothing is taken to mean the same.
    const Hunk& first = file.hunks.front();
    const bool from_nothing = file.hunks.size() == 1 && first.old_start == 0 && first.old_count == 0;
    const bool to_nothing = file.hunks.size() == 1 && first.new_start == 0 && first.new_count == 0;
    std::optional<std::string> shared;
    if (!old_missing && !new_missing) shared = shared_path(names->old_name, names->new_name);
    if (old_missing || (from_nothing && !new_missing)) {
      file.kind = ChangeKind::added;
      file.new_path = old_missing ? std::string(strip_lone_prefix(names->new_name, Side::new_version))
                                  : shared.value_or(names->new_name);
    } else if (new_missing || to_nothing) {
      file.kind = ChangeKind::deleted;
      file.old_path = new_missing ? std::string(strip_lone_prefix(names->old_name, Side::old_version))
                                  : shared.value_or(names->old_name);
    } else {
      file.old_path = shared.value_or(names->old_name);
      file.new_path = shared.value_or(names->new_name);
    }
    m_diff.files.push_back(std::move(file));
    return {};
  }

  // With the cursor on "--- ": reads it and the "+++ " line, and leaves the cursor on a hunk.
  Result<FileNames> read_name_lines() {
    const std::uint32_t number = m_cursor.number();
    if (!m_cursor.peek().starts_with("+++ ")) return error_at(number, "a '---' line must be followed by a '+++' line");
    auto old_name = parse_path_field(m_cursor.line().substr(4));
    if (!old_name) return error_at(number, old_name.error());
    m_cursor.advance();
    auto new_name = parse_path_field(m_cursor.line().substr(4));
    if (!new_name) return error_at(number + 1, new_name.error());
    m_cursor.advance();
    if (!m_cursor.line().starts_with("@@ "))
      return error_at(m_cursor.at_end() ? number + 1 : m_cursor.number(),
                      "a hunk ('@@ -OLD,COUNT +NEW,COUNT @@') must follow the '---' and '+++' lines");
    return FileNames{std::move(*old_name), std::move(*new_name)};
  }

  Result<void> read_hunks(FileDiff& file) {
    while (!m_cursor.at_end() && m_cursor.line().starts_with("@@ "))
      if (auto hunk = read_hunk(m_cursor, file); !hunk) return hunk;
    return {};
  }

  // A merge commit's diff against several parents ("diff --cc", "@@@" hunks) numbers lines in
  // ways no later stage can use; it is skipped whole, with a note, up to the next file.
  void skip_combined_diff() {
    const std::string_view line = m_cursor.line();
    m_diff.notes.push_back(
        fmt::format("diff line {}: skipped the combined diff '{}' of a merge commit; diff the "
                    "merge against one of its parents to check it",
                    m_cursor.number(), excerpt(line)));
    for (m_cursor.advance(); !m_cursor.at_end() && !starts_git_file(m_cursor.line());) m_cursor.advance();
  }

  // "Binary files OLD and NEW differ" on its own: diff -r's report for a binary file. Returns
  // false when the line does not split into two names.
  bool read_plain_binary(std::string_view line) {
    constexpr std::string_view separator = " and ";
    const std::string_view names = line.substr(13, line.size() - 13 - 7);
    std::size_t split = std::string_view::npos;
    for (auto at = names.find(separator); at != std::string_view::npos; at = names.find(separator, at + 1)) {
      if (at == 0 || at + separator.size() == names.size()) continue;
      if (split == std::string_view::npos) split = at;
      if (shared_path(names.substr(0, at), names.substr(at + separator.size()))) {
        split = at;
        break;
      }
    }
    if (split == std::string_view::npos) return false;
    const std::string_view old_name = names.substr(0, split), new_name = names.substr(split + separator.size());
    FileDiff file;
    file.diff_line = m_cursor.number();
    file.binary = true;
    if (old_name == dev_null) {
      file.kind = ChangeKind::added;
      file.new_path = strip_lone_prefix(new_name, Side::new_version);
    } else if (new_name == dev_null) {
      file.kind = ChangeKind::deleted;
      file.old_path = strip_lone_prefix(old_name, Side::old_version);
    } else {
      auto path = shared_path(old_name, new_name);
      file.old_path = path ? *path : std::string(old_name);
      file.new_path = path ? *path : std::string(new_name);
    }
    m_diff.files.push_back(std::move(file));
    return true;
  }

  LineCursor m_cursor;
  ParsedDiff m_diff;
};

}  // namespace

Result<ParsedDiff> parse_unified_diff(std::string_view text) {
  // Diff line numbers are 32-bit, and a text this large is not a code review's diff.
  if (text.size() >= std::numeric_limits<std::uint32_t>::max())
    return error_at(1, fmt::format("the diff is {} bytes; kforecast reads diffs below 4 GiB", text.size()));
  return Parser(text).run();
}

std::string_view to_string(ChangeKind kind) {
  switch (kind) {
    case ChangeKind::modified:
      return "modified";
    case ChangeKind::added:
      return "added";
    case ChangeKind::deleted:
      return "deleted";
    case ChangeKind::renamed:
      return "renamed";
    case ChangeKind::copied:
      return "copied";
  }
  return "modified";
}

}  // namespace kforecast::diff
