// SPDX-License-Identifier: Apache-2.0
// The one Markdown escaping, rendered by cmark-gfm with GitHub's extensions: hostile text renders
// as itself (the same characters, once the invisible zero-width spaces are left out) and as
// nothing else: no link, image, HTML, new block or table cell.
#include "report/markdown_text.hpp"

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "support/gfm_render.hpp"
#include "support/markdown_corpus.hpp"

using namespace kforecast::report;
using Catch::Matchers::Contains;
using kforecast::testing::github_would_link;
using kforecast::testing::html_elements;
using kforecast::testing::render_gfm;
using kforecast::testing::visible_text;

namespace {

using Elements = std::string;

// A list item and a table row, each with the text once as inline text and once as a code span.
std::string in_list_and_table(std::string_view text) {
  return fmt::format("- before {} {} after\n\n| a | b | c |\n|---|---|---|\n| {} | {} | end |\n", markdown_text(text),
                     markdown_code(text), markdown_text(text), markdown_code(text, MarkdownPlace::table_cell));
}

// What the same Markdown with plain words in place of the text renders to.
const Elements& clean_elements() {
  static const Elements elements = html_elements(render_gfm(in_list_and_table("plain words")));
  return elements;
}

// The text as a reader sees it: on one line, without control characters or bidirectional
// overrides, without the blanks at its ends (a table cell trims them).
std::string one_line(std::string_view text) {
  std::string line;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const std::string_view rest = text.substr(i);
    if (rest.starts_with("\u202E") || rest.starts_with("\u2066")) {
      i += 2;
      continue;
    }
    const char c = text[i];
    if (c == '\n' || c == '\r' || c == '\t')
      line += ' ';
    else if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f)
      line += c;
  }
  const auto first = line.find_first_not_of(' '), last = line.find_last_not_of(' ');
  return first == std::string::npos ? std::string() : line.substr(first, last - first + 1);
}

void check_renders_as_text(std::string_view text) {
  INFO("text: " << text);
  const std::string markdown = in_list_and_table(text);
  INFO("markdown: " << markdown);
  const std::string html = render_gfm(markdown);
  INFO("html: " << html);
  CHECK(html_elements(html) == clean_elements());
  CHECK_FALSE(github_would_link(html));
  // The text, once as text and once as code, in the list item and in the table.
  const std::string seen = visible_text(html);
  const std::string expected = one_line(text);
  std::size_t found = 0;
  for (auto at = seen.find(expected); at != std::string::npos; at = seen.find(expected, at + 1)) ++found;
  CHECK(found >= 4);
}

}  // namespace

TEST_CASE("markdown text: a compile log line with an image and a phishing link renders as its text") {
  const std::string line = "#error ![t](https://evil.example/t.png) [Approve](https://evil.example/login)";
  const std::string html = render_gfm(fmt::format("- note: {}\n", markdown_text(line)));
  CHECK_THAT(html, !Contains("<a") && !Contains("<img"));
  CHECK_THAT(visible_text(html), Contains(line));
  check_renders_as_text(line);
}

TEST_CASE("markdown text: every string of the injection corpus renders as its text") {
  for (const std::string& text : kforecast::testing::injection_corpus()) check_renders_as_text(text);
}

TEST_CASE("markdown text: links, images, references, autolinks and bare addresses stay text") {
  for (const std::string text : {"[x](http://evil.example)",
                                 "![x](http://evil.example/x.png)",
                                 "![t](<https://evil.example/t.png>)",
                                 "[x][1] [1]: http://evil.example/",
                                 "[x][] [x]",
                                 "[^1] footnote",
                                 "<http://evil.example/>",
                                 "<evil@example.com>",
                                 "http://evil.example/a?b=c",
                                 "https://evil.example",
                                 "ftp://evil.example/",
                                 "www.evil.example",
                                 "WWW.EVIL.EXAMPLE/x",
                                 "evil@example.com",
                                 "mailto:evil@example.com",
                                 "xmpp:evil@example.com",
                                 "a.b-c_d+e@evil-example.co.uk",
                                 "\\![t](https://evil.example/t.png)",
                                 "[a](https://evil.example \"title\")",
                                 "[link](javascript:alert(1))",
                                 "[![i](http://e.x/i.png)](http://e.x)"})
    check_renders_as_text(text);
}

TEST_CASE("markdown text: HTML and entities stay text") {
  for (const std::string text :
       {"<img src=x onerror=alert(1)>", "<a href=\"https://evil.example\">click</a>", "<details open><summary>x",
        "</details></td></tr></table>", "<!-- hidden -->", "<script>alert(1)</script>", "<svg onload=alert(1)>",
        "<style>body{}</style>", "<textarea>", "&lt;img src=x&gt;", "&#60;img&#62;", "&#x40;user", "&amp;",
        "<!DOCTYPE html>", "<![CDATA[x]]>", "<?php x ?>", "<kbd>x</kbd>"})
    check_renders_as_text(text);
}

TEST_CASE("markdown text: backtick runs of every length neither open nor close a code span") {
  for (std::size_t run = 1; run <= 12; ++run) {
    const std::string ticks(run, '`');
    check_renders_as_text(ticks);
    check_renders_as_text(ticks + " ![t](https://evil.example/t.png) " + ticks);
    check_renders_as_text("a" + ticks + "b" + std::string(run + 1, '`') + "c");
    check_renders_as_text(ticks + "x");
    check_renders_as_text("x" + ticks);
  }
  CHECK(markdown_code("a`b") == "``a`b``");
  CHECK(markdown_code("`x") == "`` `x ``");
  CHECK(markdown_code("") == "");
}

TEST_CASE("markdown text: no new block, table cell, emphasis or mention") {
  for (const std::string text : {"a | b | c",
                                 "\\| broken",
                                 "\\",
                                 "a\\",
                                 "\n# heading\n",
                                 "\r\n## heading",
                                 "x\n- item\n* item\n1. item",
                                 "x\n> quote\n---\n===",
                                 "x\n    indented code",
                                 "x\n```\nfenced\n```",
                                 "x\n~~~\nfenced",
                                 "line\\\nbreak",
                                 "trailing two spaces  \nnext",
                                 "@user @org/team",
                                 ":smile: :+1: :-1: :shipit:",
                                 "#123 and #9",
                                 "*emphasis* **strong** _under_ __strong__ ~~strike~~ ~one~",
                                 "$x^2$ $$\\href{https://evil.example}{x}$$",
                                 "title #",
                                 "a\tb\x1b[31mred\x7f",
                                 "[1]: http://evil.example/ \"t\"",
                                 "snake_case_name and _lead trail_"})
    check_renders_as_text(text);
}

TEST_CASE("markdown text: readable: plain words, paths and names come out as written") {
  CHECK(markdown_text("machine code identical for sm_90") == "machine code identical for sm_90");
  CHECK(markdown_text("src/settle.cu:9: error: expected a ';'") == "src/settle.cu:9: error: expected a ';'");
  CHECK(markdown_text("policy.on_unverified = warn") == "policy.on_unverified = warn");
  CHECK(markdown_code("sgemm_tiled<64, 64, 8>") == "`sgemm_tiled<64, 64, 8>`");
  CHECK(markdown_code("a|b", MarkdownPlace::table_cell) == "`a\\|b`");
  CHECK(markdown_code("a|b") == "`a|b`");
}

TEST_CASE("markdown text: bidirectional overrides are dropped") {
  // U+202E RIGHT-TO-LEFT OVERRIDE and U+2066 LEFT-TO-RIGHT ISOLATE would make the text read reversed.
  CHECK(markdown_text("abc\u202Edef\u2066g") == "abcdefg");
  CHECK(markdown_code("abc\u202Edef") == "`abcdef`");
}
