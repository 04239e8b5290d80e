// SPDX-License-Identifier: Apache-2.0
#include "lint/suppression.hpp"

#include <fnmatch.h>

#include <algorithm>

#include <fmt/format.h>

namespace kforecast::lint {
namespace {

bool id_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

std::vector<std::string> split_ids(std::string_view text) {
  std::vector<std::string> ids;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ',' || text[i] == ' ' || text[i] == '\t')) ++i;
    std::size_t end = i;
    while (end < text.size() && id_char(text[end])) ++end;
    if (end == i) break;
    ids.emplace_back(text.substr(i, end - i));
    i = end;
  }
  return ids;
}

}  // namespace

bool suppressed_on_line(std::string_view line, std::string_view id) {
  constexpr std::string_view marker = "kforecast: ignore";
  for (std::size_t at = line.find(marker); at != std::string_view::npos; at = line.find(marker, at + 1)) {
    // only inside a comment: a "//" or "/*" must come before the marker on the line
    const std::string_view before = line.substr(0, at);
    if (before.find("//") == std::string_view::npos && before.find("/*") == std::string_view::npos) continue;
    for (const auto& named : split_ids(line.substr(at + marker.size())))
      if (named == id || named == "all") return true;
  }
  return false;
}

Result<PathSuppressions> PathSuppressions::parse(const std::vector<std::string>& entries) {
  PathSuppressions result;
  for (const auto& entry : entries) {
    const std::size_t colon = entry.rfind(':');
    Entry parsed{entry.substr(0, colon), {}};
    if (colon != std::string::npos) {
      parsed.ids = split_ids(std::string_view(entry).substr(colon + 1));
      if (parsed.ids.empty())
        return usage_error(
            fmt::format("lint.ignore_paths: '{}' names no rule after ':' (write GLOB or GLOB:rule-id)", entry));
    }
    if (parsed.glob.empty())
      return usage_error(fmt::format("lint.ignore_paths: '{}' has an empty path pattern", entry));
    result.m_entries.push_back(std::move(parsed));
  }
  return result;
}

bool PathSuppressions::suppressed(std::string_view path, std::string_view id) const {
  const std::string text(path);
  return std::ranges::any_of(m_entries, [&](const Entry& entry) {
    if (!entry.ids.empty() && std::ranges::find(entry.ids, id) == entry.ids.end()) return false;
    return ::fnmatch(entry.glob.c_str(), text.c_str(), 0) == 0;
  });
}

}  // namespace kforecast::lint
