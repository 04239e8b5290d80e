// SPDX-License-Identifier: Apache-2.0
#pragma once

// Writing a launch-spec draft (spec_draft.hpp) as TOML: text taken from the kernel's source, which
// may be hostile, made printable and quoted; the draft's lines with the comments that say what to
// check, as a `// kforecast:` block or a [[kernel]] table.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "bench/spec_draft.hpp"

namespace kforecast::bench::draft_text {

// ASCII without control characters and at most `limit` bytes: what a TOML comment or string of
// the draft may hold, whatever the source had.
std::string printable(std::string_view text, std::size_t limit = 160);

// A TOML basic string of printable(text).
std::string quoted(std::string_view text);

// A TOML key: bare where it may be, else quoted.
std::string toml_key(std::string_view name);

// "\"FILL: what\"": a value a person must give.
std::string fill(std::string_view what);

// The draft's lines, each a TOML line and the comment that says what to check.
class DraftLines {
 public:
  void add(std::string line, std::string comment = {}) { m_lines.push_back({std::move(line), std::move(comment)}); }
  std::string text(DraftFormat format) const;

 private:
  std::vector<std::pair<std::string, std::string>> m_lines;
};

}  // namespace kforecast::bench::draft_text
