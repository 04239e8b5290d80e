// SPDX-License-Identifier: Apache-2.0
#include "context/configured_context.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "config/ascii_toml.hpp"
#include "config/toml_parser.hpp"
#include "context/flag_filter.hpp"

namespace kforecast::context {
namespace {

constexpr std::string_view table_name = "[[compile.paths]]";
constexpr std::array<std::string_view, 4> table_keys{"glob", "include_dirs", "defines", "flags"};

std::string where(std::string_view file, const toml::source_region& region) {
  return fmt::format("{}:{}:{}", file, region.begin.line, region.begin.column);
}

// A string_list setting's value; the loader has checked its type against the key table.
std::vector<std::string> list_value(const config::Config& config, std::string_view key) {
  return std::get<std::vector<std::string>>(config.setting(key).value);
}

Result<std::vector<std::string>> string_list(const toml::node& node, std::string_view file, std::string_view key) {
  const toml::array* array = node.as_array();
  std::vector<std::string> items;
  if (array != nullptr)
    for (const toml::node& item : *array) {
      auto text = item.value_exact<std::string>();
      if (!text) break;
      items.push_back(*text);
    }
  if (array == nullptr || items.size() != array->size())
    return usage_error(
        fmt::format("{}: {} key '{}' must be a list of strings", where(file, node.source()), table_name, key));
  return items;
}

Result<PathContextSettings> read_table(const toml::table& table, std::string_view file) {
  PathContextSettings path;
  path.origin = fmt::format("{}:{}", file, table.source().begin.line);
  for (auto&& [key, node] : table) {
    const std::string_view name = key.str();
    if (std::ranges::find(table_keys, name) == table_keys.end())
      return usage_error(fmt::format("{}: unknown key '{}' in {} (it takes glob, include_dirs, defines, flags)",
                                     where(file, key.source()), name, table_name));
    if (name == "glob") {
      auto glob = node.value_exact<std::string>();
      if (!glob || glob->empty())
        return usage_error(fmt::format("{}: {} key 'glob' must be a non-empty string, e.g. \"src/legacy/*\"",
                                       where(file, node.source()), table_name));
      path.glob = *glob;
      continue;
    }
    auto items = string_list(node, file, name);
    if (!items) return std::unexpected(items.error());
    ContextSettings& settings = path.settings;
    std::vector<std::string>& target = name == "include_dirs" ? settings.include_dirs
                                       : name == "defines"    ? settings.defines
                                                              : settings.flags;
    target = std::move(*items);
  }
  if (path.glob.empty())
    return usage_error(fmt::format("{}: a {} table needs a 'glob'", where(file, table.source()), table_name));
  return path;
}

Result<std::vector<PathContextSettings>> read_path_tables(std::string_view text, std::string_view file) {
  std::vector<PathContextSettings> paths;
  if (text.empty()) return paths;
  const auto ascii = config::to_ascii_toml(text);
  if (!ascii) return usage_error(fmt::format("{}: {}", file, ascii.error().what));
  toml::table root;
  try {
    root = toml::parse(*ascii, file);
  } catch (const toml::parse_error& error) {
    return usage_error(fmt::format("{}: invalid TOML: {}", where(file, error.source()), error.description()));
  }
  const toml::node* node = root.at_path("compile.paths").node();
  if (node == nullptr) return paths;
  const toml::array* array = node->as_array();
  if (array == nullptr || !array->is_array_of_tables())
    return usage_error(fmt::format("{}: 'compile.paths' must be an array of tables: write {}",
                                   where(file, node->source()), table_name));
  for (const toml::node& item : *array) {
    auto path = read_table(*item.as_table(), file);
    if (!path) return std::unexpected(path.error());
    paths.push_back(std::move(*path));
  }
  return paths;
}

void add_settings(const ContextSettings& settings, const FolderPlace& place, const FolderLookup& lookup,
                  CompileContext& context) {
  for (const auto& folder : settings.include_dirs) {
    auto admitted = admit_include_folder(folder, place, lookup);
    if (!admitted)
      context.refused.push_back(fmt::format("{} ({})", folder, admitted.error()));
    else if (std::ranges::find(context.include_dirs, *admitted) == context.include_dirs.end())
      context.include_dirs.push_back(std::move(*admitted));
  }
  std::vector<std::string> arguments;
  for (const auto& define : settings.defines) arguments.push_back(fmt::format("-D{}", define));
  arguments.insert(arguments.end(), settings.flags.begin(), settings.flags.end());
  add_arguments(arguments, place, lookup, context);
}

}  // namespace

Result<ConfiguredContexts> read_configured_contexts(const config::Config& config) {
  ConfiguredContexts contexts;
  contexts.config_name = config.source_name().empty() ? ".kforecast.toml" : config.source_name();
  contexts.everywhere.include_dirs = list_value(config, "compile.include_dirs");
  contexts.everywhere.defines = list_value(config, "compile.defines");
  contexts.everywhere.flags = list_value(config, "compile.flags");
  auto paths = read_path_tables(config.source_text(), contexts.config_name);
  if (!paths) return std::unexpected(paths.error());
  contexts.paths = std::move(*paths);
  return contexts;
}

std::optional<CompileContext> configured_context(const ConfiguredContexts& contexts, const std::string& file,
                                                 const FolderPlace& place, const FolderLookup& lookup) {
  const auto matching = std::ranges::find_if(contexts.paths, [&](const PathContextSettings& path) {
    return ::fnmatch(path.glob.c_str(), file.c_str(), 0) == 0;
  });
  if (contexts.everywhere.empty() && matching == contexts.paths.end()) return std::nullopt;
  CompileContext context;
  context.origin = ContextOrigin::config;
  context.unit = file;
  add_settings(contexts.everywhere, place, lookup, context);
  context.origin_detail = fmt::format("{} compile.*", contexts.config_name);
  if (matching != contexts.paths.end()) {
    add_settings(matching->settings, place, lookup, context);
    context.origin_detail = contexts.everywhere.empty()
                                ? fmt::format("{} [[compile.paths]] glob \"{}\"", matching->origin, matching->glob)
                                : fmt::format("{} compile.* and {} [[compile.paths]] glob \"{}\"", contexts.config_name,
                                              matching->origin, matching->glob);
  }
  return context;
}

}  // namespace kforecast::context
