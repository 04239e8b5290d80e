// SPDX-License-Identifier: Apache-2.0
#pragma once

// A Markdown report cut to fit where it is posted: a GitHub comment holds 65,536 characters, a
// GitLab note 1,000,000. A long report keeps its head (the verdict and the first kernels), is
// cut at a line end, closes what the cut left open, and links to the full report.

#include <cstddef>
#include <string>
#include <string_view>

namespace kforecast::report {

// GitHub's limit is 65,536; the rest is margin for the marker and the platform's own counting.
inline constexpr std::size_t github_comment_limit = 65000;

// `markdown` unchanged when it fits in `limit` characters (bytes; UTF-8 is never split), else
// cut with a closing line naming `full_report` (a URL or a sentence saying where it is).
std::string fit_for_comment(std::string_view markdown, std::size_t limit, std::string_view full_report);

}  // namespace kforecast::report
