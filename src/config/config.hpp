// SPDX-License-Identifier: Apache-2.0
#pragma once

// The effective configuration: every key of the table with its value and where it came from
// (default, the file, or an environment variable), so `kforecast config` can explain itself.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "config/key_spec.hpp"

namespace kforecast::config {

using Value = std::variant<bool, std::int64_t, double, std::string, std::vector<std::string>>;

enum class Source { default_value, file, environment };

struct Setting {
  const KeySpec* spec = nullptr;
  Value value;
  Source source = Source::default_value;
  std::string origin;  // "default", "path/.kforecast.toml:12", or the variable's name
};

class Config {
 public:
  // Defaults only: what kforecast uses with no file and no overrides.
  Config();

  const Setting& setting(std::string_view key) const;  // throws Fatal for a key not in the table
  const std::map<std::string, Setting, std::less<>>& settings() const { return m_settings; }

  std::string string_value(std::string_view key) const;
  double number_value(std::string_view key) const;
  std::int64_t integer_value(std::string_view key) const;
  bool boolean_value(std::string_view key) const;

  // The file the values came from, if one was read.
  const std::optional<std::filesystem::path>& file() const { return m_file; }

  void set(std::string_view key, Value value, Source source, std::string origin);
  void set_file(std::filesystem::path path) { m_file = std::move(path); }

  // The config's TOML text and the name messages give it, for readers of sections the key table
  // does not hold ([[kernel]] launch specs, read by src/bench/launch_spec_reader.hpp).
  const std::string& source_text() const { return m_source_text; }
  const std::string& source_name() const { return m_source_name; }
  void set_source(std::string text, std::string name) {
    m_source_text = std::move(text);
    m_source_name = std::move(name);
  }

 private:
  std::map<std::string, Setting, std::less<>> m_settings;
  std::optional<std::filesystem::path> m_file;
  std::string m_source_text;
  std::string m_source_name;
};

// Parses TOML text as a kforecast config. `display_name` is used in messages (a path as the
// user would recognise it). All problems are collected: the Error lists each on its own line
// as "FILE:LINE:COL: key 'x': what is wrong (did you mean 'y'?)", with exit code `usage`.
Result<Config> parse_config(std::string_view text, std::string_view display_name);

// Applies environment overrides (KFORECAST_ENDPOINT, ...) on top of `config`.
Result<Config> apply_environment(Config config, const EnvLookup& env);

// Reads the file (if given), then the environment. A missing explicit file is an error.
Result<Config> load_config(const std::optional<std::filesystem::path>& file, const EnvLookup& env);

// Where the config is looked for when --config is not given: .kforecast.toml at the root of the
// git work tree containing `start` (the nearest ancestor holding .git), else in `start` itself.
std::optional<std::filesystem::path> find_config_file(const std::filesystem::path& start);

}  // namespace kforecast::config
