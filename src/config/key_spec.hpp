// SPDX-License-Identifier: Apache-2.0
#pragma once

// Every configuration key kforecast knows, in one table: the loader validates against it,
// `kforecast config` prints it, and docs/config.md is generated from it. To add a key, add a row
// in key_table.cpp; to ship a planned feature, clear its `planned` text.

#include <optional>
#include <span>
#include <string_view>

namespace kforecast::config {

enum class ValueType { boolean, integer, number, string, string_list, choice };

struct KeySpec {
  std::string_view name;  // "section.key"
  ValueType type;
  std::string_view default_text;  // the default as TOML text ("0.2", "\"warn\"", "[]")
  std::string_view env;           // environment variable that overrides it, or ""
  std::string_view help;
  std::optional<double> min = std::nullopt;  // for integer and number
  std::optional<double> max = std::nullopt;
  std::span<const std::string_view> choices = {};  // for choice
  // Non-empty while the feature that reads this key is not built: the loader rejects the key
  // with this text rather than accept it and silently ignore it.
  std::string_view planned = {};
};

// Sections that hold arrays of tables ([[kernel]]) rather than keys.
struct TableArraySpec {
  std::string_view name;
  std::string_view help;
  std::string_view planned;
};

std::span<const KeySpec> all_keys();
std::span<const TableArraySpec> all_table_arrays();
std::span<const std::string_view> all_sections();

const KeySpec* find_key(std::string_view name);
const TableArraySpec* find_table_array(std::string_view name);

std::string_view type_name(ValueType type);

}  // namespace kforecast::config
