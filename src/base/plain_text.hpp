// SPDX-License-Identifier: Apache-2.0
#pragma once

// Untrusted text (kernel names, paths, compile logs, a plan's fields) in plain-text output: the
// terminal view, `check`'s and `lint`'s text, messages on standard error. Two dangers: a control
// character (an escape sequence can rewrite what a terminal shows), and a line that starts with
// the pull request's text, because GitHub Actions reads every line of a job's output that starts
// with "::" (after blanks) as a workflow command: `::add-mask::`, `::stop-commands::`,
// `::error file=...::`, the old `::set-output`. kforecast itself never writes one.

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

namespace kforecast {

// What a quoted line starts with: a line of untrusted text never starts a line of output.
inline constexpr std::string_view quote_mark = "| ";

// `text` on one line: line ends and tabs become spaces, any other control character (ESC, DEL)
// and a bidirectional override becomes '?'.
std::string printable_line(std::string_view text);

// `text` as lines under a label: its first line after `first` (and quote_mark, where `first` is
// blank and the line would read as a workflow command); each later one after `rest` and
// quote_mark; blank lines left out; control characters as printable_line. After `max_lines` lines,
// `more` is written after `rest` instead of the rest (nothing where `more` is empty). Every line
// ends with '\n'; empty for blank text.
std::string quoted_lines(std::string_view text, std::string_view first, std::string_view rest,
                         std::size_t max_lines = std::numeric_limits<std::size_t>::max(), std::string_view more = {});

// Whether a runner would read `line` as a workflow command: its first characters but blanks are "::".
bool reads_as_workflow_command(std::string_view line);

// `text` with quote_mark before each line a runner would read as a workflow command; the last
// argument says whether `text` starts a line (false for a piece that continues one) and is left
// saying whether the next piece does. For output streams that cannot know where text came from.
std::string neutralise_workflow_commands(std::string_view text, bool& at_line_start);

}  // namespace kforecast
