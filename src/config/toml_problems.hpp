// SPDX-License-Identifier: Apache-2.0
#pragma once

// The problems a reader of kforecast's TOML finds, each "FILE:LINE:COL: what is wrong", so every
// reader (the config's keys, [[kernel]] launch specs, [[harness]] tables) names places alike.
// `line_offset` maps the lines of an embedded text (a `// kforecast:` comment block) back to its
// file; a prefix names the table being read ("[[kernel]] 'k': ").

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "config/toml_parser.hpp"

namespace kforecast::config {

class TomlProblems {
 public:
  explicit TomlProblems(std::string_view file, std::uint32_t line_offset = 0) : m_file(file), m_offset(line_offset) {}

  void set_prefix(std::string prefix) { m_prefix = std::move(prefix); }
  void add(const toml::source_region& where, std::string_view message) {
    m_lines.push_back(
        fmt::format("{}:{}:{}: {}{}", m_file, where.begin.line + m_offset, where.begin.column, m_prefix, message));
  }
  std::string origin(const toml::source_region& where) const {
    return fmt::format("{}:{}", m_file, where.begin.line + m_offset);
  }
  bool empty() const { return m_lines.empty(); }
  std::string joined() const {
    std::string text;
    for (const auto& line : m_lines) text += (text.empty() ? "" : "\n") + line;
    return text;
  }

 private:
  std::string_view m_file;
  std::uint32_t m_offset;
  std::string m_prefix;
  std::vector<std::string> m_lines;
};

}  // namespace kforecast::config
