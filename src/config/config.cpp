// SPDX-License-Identifier: Apache-2.0
#include "config/config.hpp"

#include <fstream>
#include <iterator>
#include <system_error>

#include <fmt/format.h>

#include "config/value_text.hpp"

namespace kforecast::config {
namespace {

// Far above any real config; a bigger file is a mistake (or hostile), not a config.
constexpr std::uintmax_t max_config_bytes = 1 << 20;

template <class T>
const T& value_as(const Setting& setting) {
  if (const T* value = std::get_if<T>(&setting.value)) return *value;
  throw Fatal(ExitCode::could_not_run, fmt::format("config key '{}' read as the wrong type", setting.spec->name));
}

}  // namespace

Config::Config() {
  for (const KeySpec& spec : all_keys())
    m_settings.emplace(std::string(spec.name), Setting{&spec, parse_default(spec), Source::default_value, "default"});
}

const Setting& Config::setting(std::string_view key) const {
  auto it = m_settings.find(key);
  if (it == m_settings.end()) throw Fatal(ExitCode::could_not_run, fmt::format("unknown config key '{}'", key));
  return it->second;
}

std::string Config::string_value(std::string_view key) const { return value_as<std::string>(setting(key)); }
double Config::number_value(std::string_view key) const { return value_as<double>(setting(key)); }
std::int64_t Config::integer_value(std::string_view key) const { return value_as<std::int64_t>(setting(key)); }
bool Config::boolean_value(std::string_view key) const { return value_as<bool>(setting(key)); }

void Config::set(std::string_view key, Value value, Source source, std::string origin) {
  auto it = m_settings.find(key);
  if (it == m_settings.end()) throw Fatal(ExitCode::could_not_run, fmt::format("unknown config key '{}'", key));
  it->second.value = std::move(value);
  it->second.source = source;
  it->second.origin = std::move(origin);
}

Result<Config> load_config(const std::optional<std::filesystem::path>& file, const EnvLookup& env) {
  Config config;
  if (file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(*file, ec))
      return usage_error(fmt::format("config file '{}' not found or not a regular file", file->string()));
    if (std::filesystem::file_size(*file, ec) > max_config_bytes)
      return usage_error(fmt::format("{}: config file is larger than {} bytes", file->string(), max_config_bytes));
    std::ifstream in(*file, std::ios::binary);
    if (!in) return usage_error(fmt::format("{}: cannot read the config file", file->string()));
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    auto parsed = parse_config(text, file->string());
    if (!parsed) return std::unexpected(parsed.error());
    config = std::move(*parsed);
    config.set_file(*file);
  }
  return apply_environment(std::move(config), env);
}

std::optional<std::filesystem::path> find_config_file(const std::filesystem::path& start) {
  std::error_code ec;
  const std::filesystem::path origin = std::filesystem::absolute(start, ec);
  for (std::filesystem::path dir = origin;; dir = dir.parent_path()) {
    if (std::filesystem::exists(dir / ".git", ec)) {
      auto candidate = dir / ".kforecast.toml";
      if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
      return std::nullopt;
    }
    if (dir == dir.parent_path()) break;
  }
  auto candidate = origin / ".kforecast.toml";
  if (std::filesystem::is_regular_file(candidate, ec)) return candidate;
  return std::nullopt;
}

}  // namespace kforecast::config
