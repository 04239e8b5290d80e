// SPDX-License-Identifier: Apache-2.0
#pragma once

// A Markdown report cut to fit where it is posted: a GitHub comment holds 65,536 characters, a
// GitLab note 1,000,000, a GitHub step summary 1 MiB per step. A long report keeps its head (the
// verdict and the first kernels), is cut at a line end, closes what the cut left open, and ends
// with a note that says what was cut and where the full report is.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace kforecast::report {

// GitHub's limit is 65,536; the rest is margin for the marker and the platform's own counting.
inline constexpr std::size_t github_comment_limit = 65000;

// `markdown` unchanged when it fits in `limit` characters (bytes; UTF-8 is never split), else
// cut with a closing line naming `full_report` (a URL or a sentence saying where it is).
std::string fit_for_comment(std::string_view markdown, std::size_t limit, std::string_view full_report);

// How much a cut left out, for its note.
struct LeftOut {
  std::size_t lines = 0;     // of the report's lines, from the cut on
  std::size_t of_lines = 0;  // the report's lines in all
};

// The cut both fits make: `markdown` unchanged when it fits in `limit` bytes, else its head with
// `note(left_out)` after it (the note's own size is reserved: its numbers never exceed the
// report's line count). Where even the note does not fit in `limit`: the note alone when
// `keep_note` (a comment must say why it is short), else nothing.
std::string fit_markdown(std::string_view markdown, std::size_t limit,
                         const std::function<std::string(const LeftOut&)>& note, bool keep_note);

}  // namespace kforecast::report
