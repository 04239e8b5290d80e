// SPDX-License-Identifier: Apache-2.0
#include "bench/spec_draft_text.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace kforecast::bench::draft_text {

std::string printable(std::string_view text, std::size_t limit) {
  std::string result;
  for (char c : text.substr(0, limit)) {
    const auto byte = static_cast<unsigned char>(c);
    result += byte >= 0x20 && byte < 0x7f ? c : '?';
  }
  if (text.size() > limit) result += "...";
  return result;
}

std::string quoted(std::string_view text) {
  std::string result = "\"";
  for (char c : printable(text, 400)) {
    if (c == '"' || c == '\\') result += '\\';
    result += c;
  }
  return result + "\"";
}

std::string toml_key(std::string_view name) {
  const bool bare = !name.empty() && std::ranges::all_of(name, [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
  return bare ? std::string(name) : quoted(name);
}

std::string fill(std::string_view what) { return quoted(fmt::format("FILL: {}", what)); }

std::string DraftLines::text(DraftFormat format) const {
  std::string result;
  for (const auto& [line, comment] : m_lines) {
    std::string whole = line;
    if (!comment.empty()) whole += (line.empty() ? "# " : "  # ") + printable(comment);
    result += format == DraftFormat::comment_block ? (whole.empty() ? "//" : "// " + whole) : whole;
    result += '\n';
  }
  return result;
}

}  // namespace kforecast::bench::draft_text
