// SPDX-License-Identifier: Apache-2.0
#pragma once

// The one escaping of untrusted text in Markdown. Every field of a report can come from a pull
// request or a plan file (kernel names, paths, revisions, compile logs quoted in notes, a
// forecaster's rationale, warnings, build lines, model names), and the Markdown is posted under
// the bot's name (PR comment, step summary): whatever such text holds must render as that text,
// never as a link, an image, HTML, a mention or a new block. Every Markdown writer puts untrusted
// text through these two functions and nothing else; docs/security.md lists what they stop, and
// tests/report/markdown_injection_test.cpp renders the result with cmark-gfm (GitHub's renderer)
// to prove it.

#include <string>
#include <string_view>

namespace kforecast::report {

// Where a piece of Markdown stands: GFM splits a table row at every '|' not escaped, code spans
// included, so a table cell escapes it where inline text elsewhere need not.
enum class MarkdownPlace { inline_text, table_cell };

// `text` as inline Markdown that renders as the same characters: one line (line breaks and tabs
// become spaces, other control characters and bidirectional overrides are dropped); every
// character that opens inline syntax backslash-escaped (\ ` * _ ~ [ ] < > & | $ #; '_' not where
// it stands between two letters or digits, since there it cannot open or close emphasis), so no
// link, image, reference, autolink, HTML, entity, emphasis, code span or math can start; and a
// zero-width space (U+200B, invisible) where GitHub would link plain text: after '@' (mentions,
// e-mail addresses), after a ':' that a letter, '/', '+' or '-' follows (http://, mailto:,
// :emoji:), between "www" and '.', and between '#' and a digit (issue references). It never starts
// a block, because it is never written at the start of a line.
std::string markdown_text(std::string_view text);

// A whole code span, fences included, showing `text` literally (one line, as markdown_text): the
// fence is one backtick longer than the longest run of backticks inside, so nothing inside can close
// it. Empty text is an empty string (an empty code span would show its backticks).
std::string markdown_code(std::string_view text, MarkdownPlace place = MarkdownPlace::inline_text);

}  // namespace kforecast::report
