// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where a rule is switched off: on one line, by a comment
//     x = sqrt(y);  // kforecast: ignore double-math-function
// (several ids separated by commas or spaces; "all" for every rule), or for paths, from the
// config's lint.ignore_paths entries "GLOB" (every rule) or "GLOB:id,id". Globs are fnmatch(3)
// patterns over repository-relative paths in which '*' also matches '/'.

#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"

namespace kforecast::lint {

// Whether `line` (one source line) holds a comment "kforecast: ignore ..." naming `id` or "all".
bool suppressed_on_line(std::string_view line, std::string_view id);

class PathSuppressions {
 public:
  // Entries as the config gives them; an entry with an empty glob or id is a usage Error naming it.
  static Result<PathSuppressions> parse(const std::vector<std::string>& entries);

  bool suppressed(std::string_view path, std::string_view id) const;

 private:
  struct Entry {
    std::string glob;
    std::vector<std::string> ids;  // empty: every rule
  };
  std::vector<Entry> m_entries;
};

}  // namespace kforecast::lint
