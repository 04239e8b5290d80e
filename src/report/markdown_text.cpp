// SPDX-License-Identifier: Apache-2.0
#include "report/markdown_text.hpp"

#include <algorithm>
#include <cctype>

namespace kforecast::report {
namespace {

// U+200B ZERO WIDTH SPACE: invisible, but it breaks the plain-text patterns GitHub links.
constexpr std::string_view zero_width_space = "\u200b";

bool is_ascii_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }
bool is_ascii_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool is_ascii_alnum(char c) { return is_ascii_letter(c) || is_ascii_digit(c); }

// The length of a bidirectional embedding, override or isolate at text[at] (U+202A..U+202E,
// U+2066..U+2069 in UTF-8), which can make text read in another order than it is; else 0.
std::size_t bidi_control_length(std::string_view text, std::size_t at) {
  if (at + 2 >= text.size() || static_cast<unsigned char>(text[at]) != 0xe2) return 0;
  const auto second = static_cast<unsigned char>(text[at + 1]), third = static_cast<unsigned char>(text[at + 2]);
  const bool embedding = second == 0x80 && third >= 0xaa && third <= 0xae;
  const bool isolate = second == 0x81 && third >= 0xa6 && third <= 0xa9;
  return embedding || isolate ? 3 : 0;
}

// The text on one line, printable: line ends and tabs become spaces; other control characters and
// bidirectional controls go. Shared by both functions, so a code span is as safe as plain text.
std::string one_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (const std::size_t skip = bidi_control_length(text, i)) {
      i += skip - 1;
      continue;
    }
    const char c = text[i];
    if (c == '\n' || c == '\r' || c == '\t')
      out += ' ';
    else if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f)
      out += c;
  }
  return out;
}

// Whether the text written so far ends with "www" (any case), where a '.' would start a link.
bool ends_with_www(std::string_view written) {
  if (written.size() < 3) return false;
  return std::ranges::all_of(written.substr(written.size() - 3), [](char c) { return c == 'w' || c == 'W'; });
}

}  // namespace

std::string markdown_text(std::string_view text) {
  const std::string line = one_line(text);
  std::string out;
  out.reserve(line.size() + line.size() / 4);
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    const char next = i + 1 < line.size() ? line[i + 1] : '\0';
    switch (c) {
      case '_':  // between two letters or digits it cannot open or close emphasis: left as it reads
        if (i > 0 && is_ascii_alnum(line[i - 1]) && is_ascii_alnum(next)) {
          out += '_';
          break;
        }
        [[fallthrough]];
      case '\\':
      case '`':
      case '*':
      case '~':
      case '[':
      case ']':
      case '<':
      case '>':
      case '&':
      case '|':
      case '$':
        out += '\\';
        out += c;
        break;
      case '@':
        out += '@';
        out += zero_width_space;
        break;
      case ':':
        out += ':';
        if (is_ascii_letter(next) || next == '/' || next == '+' || next == '-') out += zero_width_space;
        break;
      case '#':  // escaped: a heading's text ending in " #" would lose it as a closing sequence
        out += "\\#";
        if (is_ascii_digit(next)) out += zero_width_space;
        break;
      case '.':
        if (ends_with_www(out)) out += zero_width_space;
        out += '.';
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string markdown_code(std::string_view text, MarkdownPlace place) {
  const std::string line = one_line(text);
  if (line.empty()) return {};
  std::size_t longest = 0, run = 0;
  for (const char c : line) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string body;
  body.reserve(line.size());
  for (const char c : line) {
    if (c == '|' && place == MarkdownPlace::table_cell) body += '\\';
    body += c;
  }
  // A span strips one space at each end when both ends have one, and a backtick at an end would
  // join the fence: a space on each side keeps the text as it is.
  const bool pad = body.front() == '`' || body.back() == '`' ||
                   (body.front() == ' ' && body.back() == ' ' && body.find_first_not_of(' ') != std::string::npos);
  const std::string fence(longest + 1, '`');
  return pad ? fence + " " + body + " " + fence : fence + body + fence;
}

}  // namespace kforecast::report
