// SPDX-License-Identifier: Apache-2.0
#include "config/config_compose.hpp"

#include <algorithm>
#include <sstream>
#include <type_traits>

#include <fmt/format.h>

#include "config/ascii_toml.hpp"
#include "config/toml_parser.hpp"

namespace kforecast::config {
namespace {

// A config's text as a table; both texts were read by parse_config already, so a failure here is
// kforecast's own mistake.
Result<toml::table> parsed(const Config& config) {
  const auto ascii = to_ascii_toml(config.source_text());
  if (!ascii)
    return fail(ExitCode::could_not_run, fmt::format("{}: cannot read the config again", config.source_name()));
  try {
    return toml::parse(*ascii, config.source_name());
  } catch (const toml::parse_error&) {
    return fail(ExitCode::could_not_run, fmt::format("{}: cannot read the config again", config.source_name()));
  }
}

// The table `dotted`'s section names in `root` ("policy" of "policy.ledger"), made where missing.
toml::table& section_of(toml::table& root, std::string_view dotted) {
  const std::string section(dotted.substr(0, dotted.rfind('.')));
  if (!root.contains(section)) root.insert(section, toml::table{});
  return *root.get_as<toml::table>(section);
}

std::string last_name(std::string_view dotted) { return std::string(dotted.substr(dotted.rfind('.') + 1)); }

void put(toml::table& root, std::string_view key, const Value& value) {
  toml::table& section = section_of(root, key);
  std::visit(
      [&](const auto& typed) {
        using T = std::decay_t<decltype(typed)>;
        if constexpr (std::is_same_v<T, std::vector<std::string>>) {
          toml::array list;
          for (const auto& item : typed) list.push_back(item);
          section.insert_or_assign(last_name(key), std::move(list));
        } else {
          section.insert_or_assign(last_name(key), typed);
        }
      },
      value);
}

}  // namespace

Result<Config> compose_config(const Config& own, std::span<const ComposedSetting> settings, const Config& donor,
                              std::span<const std::string_view> donor_tables, std::string_view name,
                              const EnvLookup& env) {
  auto own_table = parsed(own);
  if (!own_table) return std::unexpected(own_table.error());
  auto donor_table = parsed(donor);
  if (!donor_table) return std::unexpected(donor_table.error());
  toml::table root;
  // Values the environment set are set again by apply_environment, here and in a child process.
  for (const auto& [key, setting] : own.settings())
    if (setting.source == Source::file) put(root, key, setting.value);
  for (const ComposedSetting& setting : settings) put(root, setting.key, setting.value);
  for (const TableArraySpec& array : all_table_arrays()) {
    const bool from_donor = std::ranges::find(donor_tables, array.name) != donor_tables.end();
    const toml::node* tables = (from_donor ? *donor_table : *own_table).at_path(array.name).node();
    if (tables == nullptr) continue;
    if (array.name.find('.') == std::string_view::npos)
      root.insert_or_assign(array.name, *tables);
    else
      section_of(root, array.name).insert_or_assign(last_name(array.name), *tables);
  }
  // Plain flags: every string one line, escaped to ASCII, as parse_config reads it best.
  std::ostringstream text;
  text << toml::toml_formatter(root, toml::format_flags::none);
  auto config = parse_config(text.str(), name);
  if (!config) return std::unexpected(config.error());
  return apply_environment(std::move(*config), env);
}

}  // namespace kforecast::config
