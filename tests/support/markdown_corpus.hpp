// SPDX-License-Identifier: Apache-2.0
#pragma once
// Hostile text for every field that reaches Markdown (a pull request's kernel names and paths, a
// compile log quoted in a note, a forecaster's rationale, a forged plan's strings), and the check
// of what GitHub's own text filters would still link in rendered HTML.

#include <regex>
#include <string>
#include <vector>

#include "support/gfm_render.hpp"

namespace kforecast::testing {

inline std::vector<std::string> injection_corpus() {
  std::vector<std::string> corpus{
      // images, links, references, footnotes
      "#error ![t](https://evil.example/t.png) [Approve](https://evil.example/login)", "[x](http://evil.example)",
      "![x](<https://evil.example/x.png>)", "[x][1]\n\n[1]: http://evil.example/",
      "[x][1] [1]: http://evil.example/ \"t\"", "[x][]\n[x]: http://evil.example", "[^1]\n\n[^1]: [a](http://e.x)",
      "\\![t](https://evil.example/t.png)", "[link](javascript:alert(1))",
      // autolinks, bare URLs, addresses
      "<http://evil.example/>", "<evil@example.com>", "https://evil.example/a?b=c", "http://evil.example",
      "ftp://evil.example/", "www.evil.example", "WWW.EVIL.EXAMPLE/x", "evil@example.com", "mailto:evil@example.com",
      "xmpp:evil@example.com",
      // HTML and entities
      "<img src=x onerror=alert(1)>", "<a href=\"https://evil.example\">click</a>", "<details open><summary>x",
      "</details></td></tr></table>", "</summary></details>", "<!-- hidden -->", "<script>alert(1)</script>",
      "<svg onload=alert(1)>", "&lt;img src=x&gt;", "&#60;img&#62;", "&#x40;user", "<kbd>k</kbd>",
      // code spans and fences; the first two fit in the 12 characters of a revision the report shows
      "`![x](//e.x)", "`<img src=x>", "`", "``", "```", "````````", "` ![t](https://evil.example/t.png) `",
      "``` ![t](https://e.x/t.png) ```", "x\n```\nfenced\n```",
      // table and block structure
      "a | b | c", "\\| broken", "\\", "\n# heading\n", "\r\n## heading", "x\n- item\n* item\n1. item",
      "x\n> quote\n---\n===", "x\n    indented", "line\\\nbreak", "two spaces  \nnext", "title #",
      // GitHub's text filters, emphasis, math, control characters
      "@user @org/team", ":smile: :+1: :shipit:", "#123 and #9", "*em* **strong** _u_ __s__ ~~strike~~",
      "$x^2$ $$\\href{https://evil.example}{x}$$", "a\tb\x1b[31mred\x7f", "\u202Egnp.exe"};
  return corpus;
}

// Whether GitHub would still make a link of rendered `html`'s text outside code: its filters run
// after the Markdown renderer, on the HTML's text, and link mentions, URLs, www. names, issue
// references and emoji names.
inline bool github_would_link(const std::string& html) {
  static const std::regex code(R"(<code>[\s\S]*?</code>)");
  static const std::regex linkable(R"(@[A-Za-z0-9]|(https?|ftp)://|[Ww]{3}\.|#[0-9]|:[a-z+\-][a-z0-9_+\-]*:)");
  return std::regex_search(html_text(std::regex_replace(html, code, "")), linkable);
}

}  // namespace kforecast::testing
