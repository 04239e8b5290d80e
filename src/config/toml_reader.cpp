// SPDX-License-Identifier: Apache-2.0
// Reads .kforecast.toml against the key table. The file is untrusted (in PR mode it comes from
// the repository): every problem is reported with file:line:column and the key, and none is
// skipped silently.

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "base/nearest_name.hpp"
#include "config/ascii_toml.hpp"
#include "config/config.hpp"
#include "config/toml_parser.hpp"
#include "config/toml_problems.hpp"
#include "config/value_text.hpp"
#include "kforecast_version.hpp"

namespace kforecast::config {
namespace {

using Problems = TomlProblems;

std::vector<std::string_view> key_names() {
  std::vector<std::string_view> names;
  for (const auto& spec : all_keys()) names.push_back(spec.name);
  return names;
}

// A suggestion for a key that is not in the table: the nearest full name, else a key of the
// same last component in any section ("url" at top level -> "endpoint.url").
std::string suggest_key(std::string_view typed) {
  const auto names = key_names();
  if (auto nearest = nearest_name(typed, names)) return fmt::format(" (did you mean '{}'?)", *nearest);
  const std::string_view leaf = typed.substr(typed.rfind('.') == std::string_view::npos ? 0 : typed.rfind('.') + 1);
  std::vector<std::string_view> leaves;
  for (auto name : names) leaves.push_back(name.substr(name.rfind('.') + 1));
  if (auto nearest = nearest_name(leaf, leaves)) {
    const auto index = std::ranges::find(leaves, std::string_view(*nearest)) - leaves.begin();
    return fmt::format(" (did you mean '{}'?)", names[static_cast<std::size_t>(index)]);
  }
  return {};
}

std::string_view toml_type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a floating-point number";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    default:
      return "nothing";
  }
}

std::optional<Value> typed_value(const KeySpec& spec, const toml::node& node) {
  switch (spec.type) {
    case ValueType::boolean:
      if (auto v = node.value_exact<bool>()) return Value{*v};
      break;
    case ValueType::integer:
      if (auto v = node.value_exact<std::int64_t>()) return Value{*v};
      break;
    case ValueType::number:
      if (auto v = node.value_exact<double>()) return Value{*v};
      if (auto v = node.value_exact<std::int64_t>()) return Value{static_cast<double>(*v)};
      break;
    case ValueType::string:
    case ValueType::choice:
      if (auto v = node.value_exact<std::string>()) return Value{*v};
      break;
    case ValueType::string_list:
      if (const toml::array* array = node.as_array()) {
        std::vector<std::string> items;
        for (const toml::node& item : *array) {
          auto text = item.value_exact<std::string>();
          if (!text) return std::nullopt;
          items.push_back(*text);
        }
        return Value{std::move(items)};
      }
      break;
  }
  return std::nullopt;
}

void read_key(Config& config, Problems& problems, std::string_view file, const std::string& name, const toml::key& key,
              const toml::node& node) {
  const KeySpec* spec = find_key(name);
  const auto& where = key.source();
  if (spec == nullptr) {
    problems.add(where, fmt::format("unknown key '{}'{}", name, suggest_key(name)));
    return;
  }
  if (!spec->planned.empty()) {
    problems.add(where, fmt::format("key '{}' is not supported yet: {} in kforecast {}; remove it", name, spec->planned,
                                    kforecast::version));
    return;
  }
  auto value = typed_value(*spec, node);
  if (!value) {
    problems.add(where,
                 fmt::format("key '{}' must be {}, got {}", name, describe_accepted(*spec), toml_type_name(node)));
    return;
  }
  if (std::string problem = check_bounds(*spec, *value); !problem.empty()) {
    problems.add(where, fmt::format("key '{}' {}", name, problem));
    return;
  }
  config.set(name, std::move(*value), Source::file, fmt::format("{}:{}", file, where.begin.line));
}

void read_section(Config& config, Problems& problems, std::string_view file, std::string_view section,
                  const toml::key& key, const toml::node& node) {
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    problems.add(key.source(),
                 fmt::format("'{}' must be a section ([{}]), got {}", section, section, toml_type_name(node)));
    return;
  }
  for (auto&& [child_key, child] : *table) {
    const std::string name = fmt::format("{}.{}", section, child_key.str());
    // An array of tables inside a section ([[compile.paths]]) is read by its own reader from
    // Config::source_text(); here it need only be one.
    if (find_table_array(name) != nullptr) {
      if (!child.is_array_of_tables())
        problems.add(child_key.source(), fmt::format("'{}' must be an array of tables: write [[{}]]", name, name));
      continue;
    }
    read_key(config, problems, file, name, child_key, child);
  }
}

}  // namespace

Result<Config> parse_config(std::string_view text, std::string_view display_name) {
  const auto ascii = to_ascii_toml(text);
  if (!ascii)
    return usage_error(
        fmt::format("{}:{}:{}: {} is not supported in kforecast's config (the TOML parser it is built "
                    "with mishandles it); use ASCII, or put the text in a one-line string",
                    display_name, ascii.error().where.line, ascii.error().where.column, ascii.error().what));
  toml::table root;
  try {
    root = toml::parse(*ascii, display_name);
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    return usage_error(
        fmt::format("{}:{}:{}: invalid TOML: {}", display_name, where.line, where.column, error.description()));
  }

  Config config;
  Problems problems(display_name);
  const auto sections = all_sections();
  for (auto&& [key, node] : root) {
    const std::string name(key.str());
    if (const TableArraySpec* array = find_table_array(name)) {
      if (!array->planned.empty())
        problems.add(key.source(), fmt::format("'[[{}]]' is not supported yet: {} in kforecast {}; remove it", name,
                                               array->planned, kforecast::version));
      continue;
    }
    if (std::ranges::find(sections, name) != sections.end()) {
      read_section(config, problems, display_name, name, key, node);
    } else if (node.is_table()) {
      // Where the section's name is no near miss, its keys may be: [context] submodules is compile.submodules.
      std::string hint = did_you_mean(name, sections);
      if (const toml::table* table = node.as_table(); hint.empty() && !table->empty())
        hint = suggest_key(name + "." + std::string(table->begin()->first.str()));
      problems.add(key.source(), fmt::format("unknown section '[{}]'{}", name, hint));
    } else {
      problems.add(key.source(), fmt::format("unknown key '{}': keys belong in a section{}", name, suggest_key(name)));
    }
  }
  if (!problems.empty()) return usage_error(problems.joined());
  config.set_source(std::string(text), std::string(display_name));
  return config;
}

}  // namespace kforecast::config
