// SPDX-License-Identifier: Apache-2.0
#pragma once
// Markdown rendered as GitHub renders it, for tests of what kforecast posts: cmark-gfm (GitHub's
// own fork of cmark) with the extensions github.com enables (table, strikethrough, autolink,
// tagfilter) and footnotes, raw HTML passed through (GitHub keeps HTML and sanitises it afterwards,
// keeping <a>, <img>, <details> and more), so any HTML a report lets through shows in the result.

#include <cstddef>
#include <string>
#include <string_view>

namespace kforecast::testing {

// The HTML of `markdown`.
std::string render_gfm(std::string_view markdown);

// How many of each element `html` opens, as text a test compares and prints: "code 4, td 10";
// a closing tag is not counted.
std::string html_elements(std::string_view html);

// The text of `html`: tags dropped, the entities cmark writes decoded. Zero-width spaces (U+200B)
// stay: GitHub's own filters (mentions, issue references, emoji) see them.
std::string html_text(std::string_view html);

// What a reader sees of `html`: html_text without the zero-width spaces.
std::string visible_text(std::string_view html);

}  // namespace kforecast::testing
