// SPDX-License-Identifier: Apache-2.0
#include "lint_run/lint_rules.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace kforecast::lint_run {
namespace {

std::vector<std::string> string_list(const config::Config& config, std::string_view key) {
  return std::get<std::vector<std::string>>(config.setting(key).value);
}

Result<std::string> read_text(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return usage_error(fmt::format("lint.rules_path: cannot read '{}'", path.string()));
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace

std::filesystem::path config_root(const config::Config& config) {
  std::error_code ec;
  if (config.file())
    return config.file()->parent_path().empty() ? std::filesystem::current_path(ec) : config.file()->parent_path();
  return std::filesystem::current_path(ec);
}

Result<lint::RuleSet> configured_rules(const config::Config& config) {
  lint::RuleSet rules = lint::builtin_rules();
  if (const std::string path = config.string_value("lint.rules_path"); !path.empty()) {
    const std::filesystem::path full = config_root(config) / path;
    std::vector<std::filesystem::path> files;
    std::error_code ec;
    if (std::filesystem::is_directory(full, ec)) {
      for (const auto& entry : std::filesystem::directory_iterator(full, ec))
        if (entry.path().extension() == ".toml") files.push_back(entry.path());
      std::ranges::sort(files);
    } else if (std::filesystem::exists(full, ec)) {
      files.push_back(full);
    } else {
      return usage_error(fmt::format("lint.rules_path: '{}' does not exist (it is relative to '{}')", path,
                                     config_root(config).string()));
    }
    for (const auto& file : files) {
      auto text = read_text(file);
      if (!text) return std::unexpected(text.error());
      if (auto read = rules.read(*text, file.lexically_relative(config_root(config)).generic_string()); !read)
        return std::unexpected(read.error());
    }
  }
  for (const auto& id : string_list(config, "lint.disable")) {
    if (rules.find(id) == nullptr)
      return usage_error(fmt::format("lint.disable: no rule '{}'; 'kforecast rules' lists them", id));
    rules.remove(id);
  }
  return rules;
}

}  // namespace kforecast::lint_run
