// SPDX-License-Identifier: Apache-2.0
#include "context/cmake_values.hpp"

#include <algorithm>
#include <array>
#include <map>

#include <fmt/format.h>

namespace kforecast::context {

std::vector<std::string> list_items(std::string_view value) {
  std::vector<std::string> items;
  std::string item;
  int genex_depth = 0;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    if (c == '$' && i + 1 < value.size() && value[i + 1] == '<') ++genex_depth;
    if (c == '>' && genex_depth > 0) --genex_depth;
    if (c == '\\' && i + 1 < value.size() && value[i + 1] == ';') {
      item += ';';
      ++i;
    } else if (c == ';' && genex_depth == 0) {
      if (!item.empty()) items.push_back(std::move(item));
      item.clear();
    } else {
      item += c;
    }
  }
  if (!item.empty()) items.push_back(std::move(item));
  return items;
}

std::string join_list(const std::vector<std::string>& items) { return fmt::format("{}", fmt::join(items, ";")); }

std::vector<std::string> flag_words(std::string_view value) {
  std::vector<std::string> words;
  for (const auto& item : list_items(value)) {
    std::size_t at = 0;
    while (at < item.size()) {
      const std::size_t start = item.find_first_not_of(" \t\n", at);
      if (start == std::string::npos) break;
      const std::size_t end = std::min(item.find_first_of(" \t\n", start), item.size());
      words.push_back(item.substr(start, end - start));
      at = end;
    }
  }
  return words;
}

std::optional<std::string> computed_variable(const std::string& command, const std::vector<std::string>& words) {
  if (words.empty()) return std::nullopt;
  if (command == "list") {
    if (words.size() < 2) return std::nullopt;
    static constexpr std::array<std::string_view, 5> to_last{"GET", "LENGTH", "FIND", "JOIN", "SUBLIST"};
    return std::ranges::find(to_last, words[0]) != to_last.end() ? words.back() : words[1];
  }
  if (command == "string") {
    // Where each sub-command puts its result.
    static const std::map<std::string, std::size_t, std::less<>> output_at{
        {"REPLACE", 3}, {"CONCAT", 1}, {"JOIN", 2},      {"TOLOWER", 2}, {"TOUPPER", 2},
        {"STRIP", 2},   {"LENGTH", 2}, {"SUBSTRING", 4}, {"FIND", 3},    {"REGEX", 3}};
    const auto found = output_at.find(words[0]);
    if (found == output_at.end()) return std::nullopt;
    const std::size_t at = words[0] == "REGEX" && words.size() > 1 && words[1] == "REPLACE" ? 4 : found->second;
    return at < words.size() ? std::optional(words[at]) : std::nullopt;
  }
  if (command == "math" || command == "cmake_path") return words.size() > 1 ? std::optional(words[1]) : std::nullopt;
  if (command == "execute_process") {
    const auto output = std::ranges::find(words, "OUTPUT_VARIABLE");
    return output != words.end() && output + 1 != words.end() ? std::optional(*(output + 1)) : std::nullopt;
  }
  static constexpr std::array<std::string_view, 9> to_first{"get_filename_component",
                                                            "get_directory_property",
                                                            "get_property",
                                                            "get_target_property",
                                                            "find_path",
                                                            "find_library",
                                                            "find_program",
                                                            "find_file",
                                                            "try_run"};
  if (std::ranges::find(to_first, command) != to_first.end()) return words[0];
  return std::nullopt;
}

}  // namespace kforecast::context
