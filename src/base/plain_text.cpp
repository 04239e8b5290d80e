// SPDX-License-Identifier: Apache-2.0
#include "base/plain_text.hpp"

#include <fmt/format.h>

namespace kforecast {
namespace {

// The length of a bidirectional embedding, override or isolate at text[at] (U+202A..U+202E,
// U+2066..U+2069 in UTF-8), which makes text read in another order than it is; else 0.
std::size_t bidi_control_length(std::string_view text, std::size_t at) {
  if (at + 2 >= text.size() || static_cast<unsigned char>(text[at]) != 0xe2) return 0;
  const auto second = static_cast<unsigned char>(text[at + 1]), third = static_cast<unsigned char>(text[at + 2]);
  const bool embedding = second == 0x80 && third >= 0xaa && third <= 0xae;
  const bool isolate = second == 0x81 && third >= 0xa6 && third <= 0xa9;
  return embedding || isolate ? 3 : 0;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

}  // namespace

std::string printable_line(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (const std::size_t skip = bidi_control_length(text, i)) {
      out += '?';
      i += skip - 1;
      continue;
    }
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n' || c == '\r' || c == '\t')
      out += ' ';
    else
      out += byte < 0x20 || byte == 0x7f ? '?' : c;
  }
  return out;
}

std::string quoted_lines(std::string_view text, std::string_view first, std::string_view rest, std::size_t max_lines,
                         std::string_view more) {
  std::string out;
  std::size_t lines = 0, start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = printable_line(text.substr(start, end - start));
    start = end + 1;
    if (line.find_first_not_of(' ') == std::string::npos) continue;
    if (++lines > max_lines) {
      if (!more.empty()) out += fmt::format("{}{}\n", rest, more);
      break;
    }
    // A label of blanks alone would leave the first line starting with the text.
    const bool mark = lines > 1 || reads_as_workflow_command(fmt::format("{}{}", first, line));
    out += fmt::format("{}{}{}\n", lines == 1 ? first : rest, mark ? quote_mark : "", line);
  }
  return out;
}

bool reads_as_workflow_command(std::string_view line) {
  std::size_t at = 0;
  while (at < line.size() && is_blank(line[at])) ++at;
  return line.substr(at).starts_with("::");
}

std::string neutralise_workflow_commands(std::string_view text, bool& at_line_start) {
  std::string out;
  out.reserve(text.size());
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size() - 1) + 1;
    const std::string_view line = text.substr(start, end - start);
    if (at_line_start && reads_as_workflow_command(line)) out += quote_mark;
    out += line;
    at_line_start = line.ends_with('\n');
    start = end;
  }
  return out;
}

}  // namespace kforecast
