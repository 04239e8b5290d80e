// SPDX-License-Identifier: Apache-2.0
#include "git/submodules.hpp"

#include <algorithm>
#include <cctype>

#include "git/git_process.hpp"

namespace kforecast::git {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) text.remove_suffix(1);
  return text;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::ranges::transform(out, out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// A value as git reads it: quotes removed, a trailing comment cut.
std::string value_of(std::string_view text) {
  text = trim(text);
  if (text.size() >= 2 && text.front() == '"') {
    const auto close = text.find('"', 1);
    return std::string(text.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1));
  }
  const auto comment = text.find_first_of("#;");
  return std::string(trim(text.substr(0, comment)));
}

bool plain_relative(std::string_view path) {
  if (path.empty() || path.front() == '/') return false;
  std::size_t begin = 0;
  while (begin <= path.size()) {
    const auto end = std::min(path.find('/', begin), path.size());
    if (path.substr(begin, end - begin) == "..") return false;
    begin = end + 1;
  }
  return true;
}

}  // namespace

std::vector<Submodule> parse_gitmodules(std::string_view text) {
  std::vector<Submodule> submodules;
  bool in_submodule = false;
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = trim(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (line.empty() || line.front() == '#' || line.front() == ';') continue;
    if (line.front() == '[') {
      const auto close = line.find(']');
      const std::string_view header = line.substr(1, close == std::string_view::npos ? std::string_view::npos : close - 1);
      in_submodule = lower(trim(header.substr(0, header.find('"')))) == "submodule";
      if (in_submodule) {
        const auto open = header.find('"');
        const auto last = header.rfind('"');
        submodules.push_back(
            {open != std::string_view::npos && last > open ? std::string(header.substr(open + 1, last - open - 1)) : "",
             "", ""});
      }
      continue;
    }
    if (!in_submodule) continue;
    const auto equals = line.find('=');
    if (equals == std::string_view::npos) continue;
    const std::string key = lower(trim(line.substr(0, equals)));
    if (key == "path") submodules.back().path = value_of(line.substr(equals + 1));
    if (key == "url") submodules.back().url = value_of(line.substr(equals + 1));
  }
  std::erase_if(submodules, [](const Submodule& submodule) { return !plain_relative(submodule.path); });
  return submodules;
}

Result<std::vector<Gitlink>> list_gitlinks(const std::filesystem::path& root, std::string_view revision) {
  auto listed = run_git(root, {"ls-tree", "-r", "-z", std::string(revision)});
  if (!listed) return std::unexpected(listed.error());
  std::vector<Gitlink> links;
  std::string_view rest = listed->out;
  while (!rest.empty()) {
    const auto end = rest.find('\0');
    const std::string_view record = rest.substr(0, end);
    rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    // "160000 commit HASH\tPATH"
    const auto tab = record.find('\t');
    if (!record.starts_with("160000 commit ") || tab == std::string_view::npos) continue;
    links.push_back({std::string(record.substr(tab + 1)), std::string(record.substr(14, tab - 14))});
  }
  return links;
}

}  // namespace kforecast::git
