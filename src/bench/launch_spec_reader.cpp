// SPDX-License-Identifier: Apache-2.0
#include "bench/launch_spec_reader.hpp"

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "base/nearest_name.hpp"
#include "base/shell_text.hpp"
#include "config/ascii_toml.hpp"
#include "config/toml_parser.hpp"
#include "config/toml_problems.hpp"

namespace kforecast::bench {
namespace {

constexpr std::array<std::string_view, 11> kernel_keys{
    "name", "file", "sizes", "grid", "block", "shared_bytes", "include_dirs", "defines", "args", "rtol", "atol"};
constexpr std::array<std::string_view, 6> buffer_keys{"count", "init", "role", "rtol", "atol", "type"};

// Problems found while reading, each "FILE:LINE:COL: [[kernel]] 'NAME': ...".
using Problems = config::TomlProblems;

std::string kernel_prefix(const std::string& name) {
  return name.empty() ? "" : fmt::format("[[kernel]] '{}': ", name);
}

std::optional<std::string> text_or_integer(const toml::node& node) {
  if (auto text = node.value_exact<std::string>()) return text;
  if (auto number = node.value_exact<std::int64_t>()) return std::to_string(*number);
  return std::nullopt;
}

std::optional<double> number_of(const toml::node& node) {
  if (auto value = node.value_exact<double>()) return value;
  if (auto value = node.value_exact<std::int64_t>()) return static_cast<double>(*value);
  return std::nullopt;
}

void read_tolerance(const toml::node& node, std::string_view key, std::optional<double>& into, Problems& problems) {
  const auto value = number_of(node);
  if (!value || !std::isfinite(*value) || *value < 0 || *value > 1e6)
    problems.add(node.source(), fmt::format("key '{}' must be a number from 0 to 1e6 (e.g. 1e-4)", key));
  else
    into = value;
}

std::vector<std::string> expression_list(const toml::node& node, std::string_view key, Problems& problems) {
  std::vector<std::string> items;
  const toml::array* array = node.as_array();
  if (array == nullptr || array->empty() || array->size() > 3) {
    problems.add(node.source(),
                 fmt::format("key '{}' must be a list of 1 to 3 expressions, e.g. [\"ceil_div(n, 256)\"]", key));
    return items;
  }
  for (const toml::node& item : *array) {
    auto text = text_or_integer(item);
    if (!text) {
      problems.add(item.source(), fmt::format("key '{}': each entry must be an integer or an expression string", key));
      continue;
    }
    items.push_back(*text);
  }
  return items;
}

std::vector<SizeVariables> read_sizes(const toml::node& node, Problems& problems) {
  std::vector<SizeVariables> sizes;
  const toml::array* array = node.as_array();
  if (array == nullptr || array->empty()) {
    problems.add(node.source(), "key 'sizes' must be a list of tables of integers, e.g. [{ N = 4096 }]");
    return sizes;
  }
  for (const toml::node& item : *array) {
    const toml::table* table = item.as_table();
    if (table == nullptr) {
      problems.add(item.source(), "key 'sizes': each entry must be a table of integers, e.g. { N = 4096 }");
      continue;
    }
    SizeVariables variables;
    for (auto&& [key, value] : *table) {
      auto number = value.value_exact<std::int64_t>();
      if (!number)
        problems.add(value.source(), fmt::format("key 'sizes': '{}' must be an integer", key.str()));
      else
        variables.emplace(std::string(key.str()), *number);
    }
    sizes.push_back(std::move(variables));
  }
  return sizes;
}

std::optional<Role> parse_role(std::string_view text) {
  if (text == "in") return Role::in;
  if (text == "out") return Role::out;
  if (text == "inout") return Role::inout;
  return std::nullopt;
}

BufferSpec read_buffer(const toml::table& table, const std::string& arg, Problems& problems) {
  BufferSpec buffer;
  bool has_count = false;
  for (auto&& [key, node] : table) {
    const std::string name(key.str());
    const std::string full = fmt::format("args.{}.{}", arg, name);
    if (name == "count") {
      auto text = text_or_integer(node);
      if (!text)
        problems.add(node.source(), fmt::format("key '{}' must be an integer or an expression string", full));
      else
        buffer.count = *text, has_count = true;
    } else if (name == "init") {
      auto text = node.value_exact<std::string>();
      if (!text) {
        problems.add(node.source(), fmt::format("key '{}' must be a string, e.g. \"uniform(-1, 1)\"", full));
      } else if (auto init = parse_init(*text); !init) {
        problems.add(node.source(), fmt::format("key '{}': {}", full, init.error().message));
      } else {
        buffer.init = *init;
      }
    } else if (name == "role") {
      auto text = node.value_exact<std::string>();
      auto role = text ? parse_role(*text) : std::nullopt;
      if (!role)
        problems.add(node.source(), fmt::format("key '{}' must be \"in\", \"out\" or \"inout\"", full));
      else
        buffer.role = *role;
    } else if (name == "rtol") {
      read_tolerance(node, full, buffer.rtol, problems);
    } else if (name == "atol") {
      read_tolerance(node, full, buffer.atol, problems);
    } else if (name == "type") {
      auto text = node.value_exact<std::string>();
      if (!text)
        problems.add(node.source(), fmt::format("key '{}' must be a type name such as \"float\"", full));
      else
        buffer.type = *text;
    } else {
      problems.add(key.source(), fmt::format("unknown key '{}'{}", full, did_you_mean(name, buffer_keys)));
    }
  }
  if (!has_count) problems.add(table.source(), fmt::format("buffer 'args.{}' needs a 'count' (elements)", arg));
  return buffer;
}

std::vector<ArgumentSpec> read_args(const toml::node& node, Problems& problems) {
  std::vector<ArgumentSpec> args;
  const toml::table* table = node.as_table();
  if (table == nullptr) {
    problems.add(node.source(), "key 'args' must be a table: [kernel.args] with one key per parameter");
    return args;
  }
  for (auto&& [key, value] : *table) {
    const std::string name(key.str());
    if (const toml::table* buffer = value.as_table()) {
      args.push_back({name, read_buffer(*buffer, name, problems)});
    } else if (auto text = value.value_exact<std::string>()) {
      args.push_back({name, ScalarSpec{*text}});
    } else if (auto integer = value.value_exact<std::int64_t>()) {
      args.push_back({name, ScalarSpec{std::to_string(*integer)}});
    } else if (auto number = value.value_exact<double>()) {
      args.push_back({name, ScalarSpec{fmt::format("{}", *number)}});
    } else {
      problems.add(value.source(), fmt::format("key 'args.{}' must be a scalar (\"expression\" or number) or a "
                                               "buffer table {{ count = \"...\" }}",
                                               name));
    }
  }
  return args;
}

LaunchSpec read_spec(const toml::table& table, Problems& problems, std::optional<std::string> implied_name) {
  LaunchSpec spec;
  if (implied_name) spec.name = *implied_name;
  if (const toml::node* name = table.get("name")) {
    if (auto text = name->value_exact<std::string>(); text && !text->empty())
      spec.name = *text;
    else
      problems.add(name->source(), "key 'name' must be the kernel's name, e.g. \"sgemm_tiled\" or \"tiled<64>\"");
  }
  problems.set_prefix(kernel_prefix(spec.name));
  spec.origin = problems.origin(table.source());
  if (spec.name.empty()) problems.add(table.source(), "a [[kernel]] spec needs a 'name'");
  bool has_grid = false, has_block = false, has_sizes = false;
  for (auto&& [key, node] : table) {
    const std::string name(key.str());
    if (name == "name") continue;
    if (name == "file") {
      auto text = node.value_exact<std::string>();
      if (!text)
        problems.add(node.source(), "key 'file' must be a path string");
      else
        spec.file = *text;
    } else if (name == "sizes") {
      spec.sizes = read_sizes(node, problems);
      has_sizes = true;
    } else if (name == "grid") {
      spec.grid = expression_list(node, name, problems);
      has_grid = true;
    } else if (name == "block") {
      spec.block = expression_list(node, name, problems);
      has_block = true;
    } else if (name == "shared_bytes") {
      auto text = text_or_integer(node);
      if (!text)
        problems.add(node.source(), "key 'shared_bytes' must be an integer or an expression string");
      else
        spec.shared_bytes = *text;
    } else if (name == "include_dirs") {
      const toml::array* array = node.as_array();
      if (array == nullptr)
        problems.add(node.source(), "key 'include_dirs' must be a list of paths");
      else
        for (const toml::node& item : *array) {
          if (auto text = item.value_exact<std::string>()) {
            if (auto c = shell_active_or_quote(*text))
              problems.add(item.source(), fmt::format("key 'include_dirs': '{}' holds {}, which the shell nvcc runs "
                                                      "its steps in would act on; name a plain folder",
                                                      *text, describe_character(*c)));
            else
              spec.include_dirs.push_back(*text);
          } else
            problems.add(item.source(), "key 'include_dirs': each entry must be a path string");
        }
    } else if (name == "defines") {
      const toml::table* defines = node.as_table();
      if (defines == nullptr)
        problems.add(node.source(), "key 'defines' must be a table, e.g. { TILE = \"64\" }");
      else
        for (auto&& [macro, value] : *defines) {
          auto text = text_or_integer(value);
          if (!text)
            problems.add(value.source(), fmt::format("key 'defines.{}' must be a string", macro.str()));
          else if (auto problem = define_refusal(macro.str(), *text))
            problems.add(value.source(), fmt::format("key 'defines.{}': {}", macro.str(), *problem));
          else
            spec.defines.emplace_back(std::string(macro.str()), *text);
        }
    } else if (name == "args") {
      spec.args = read_args(node, problems);
    } else if (name == "rtol") {
      read_tolerance(node, name, spec.rtol, problems);
    } else if (name == "atol") {
      read_tolerance(node, name, spec.atol, problems);
    } else {
      problems.add(key.source(), fmt::format("unknown key '{}'{}", name, did_you_mean(name, kernel_keys)));
    }
  }
  if (!has_sizes) spec.sizes.emplace_back();  // a kernel whose launch needs no size variable
  if (!has_grid) problems.add(table.source(), "a spec needs 'grid', e.g. grid = [\"ceil_div(n, 256)\"]");
  if (!has_block) problems.add(table.source(), "a spec needs 'block', e.g. block = [256]");
  return spec;
}

Result<toml::table> parse_toml(std::string_view text, std::string_view display_name, std::uint32_t line_offset) {
  const auto ascii = config::to_ascii_toml(text);
  if (!ascii)
    return usage_error(fmt::format("{}:{}:{}: {} is not supported in a launch spec; use ASCII", display_name,
                                   ascii.error().where.line + line_offset, ascii.error().where.column,
                                   ascii.error().what));
  try {
    return toml::parse(*ascii, display_name);
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    return usage_error(fmt::format("{}:{}:{}: invalid TOML in a launch spec: {}", display_name,
                                   where.line + line_offset, where.column, error.description()));
  }
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto end = text.find('\n', start);
    lines.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return lines;
}

}  // namespace

Result<std::vector<LaunchSpec>> read_config_specs(std::string_view toml_text, std::string_view display_name) {
  auto root = parse_toml(toml_text, display_name, 0);
  if (!root) return std::unexpected(root.error());
  std::vector<LaunchSpec> specs;
  const toml::node* kernels = root->get("kernel");
  if (kernels == nullptr) return specs;
  Problems problems(display_name, 0);
  const toml::array* array = kernels->as_array();
  if (array == nullptr) {
    problems.add(kernels->source(), "'kernel' must be an array of tables: write [[kernel]], not [kernel]");
    return usage_error(problems.joined());
  }
  for (const toml::node& node : *array) {
    problems.set_prefix("");
    if (const toml::table* table = node.as_table())
      specs.push_back(read_spec(*table, problems, std::nullopt));
    else
      problems.add(node.source(), "each [[kernel]] entry must be a table");
  }
  if (!problems.empty()) return usage_error(problems.joined());
  return specs;
}

Result<std::optional<LaunchSpec>> read_comment_spec(std::string_view source, std::uint32_t first_line,
                                                    std::string_view kernel_name, std::string_view display_name) {
  const auto lines = split_lines(source);
  if (first_line < 2 || first_line - 1 > lines.size()) return std::optional<LaunchSpec>{};
  // The comment lines directly above the kernel, bottom up.
  std::size_t top = first_line - 1;  // index of the kernel's first line
  while (top > 0 && trim(lines[top - 1]).starts_with("//")) --top;
  std::optional<std::size_t> start;
  for (std::size_t i = top; i + 1 < first_line; ++i) {
    std::string_view body = trim(trim(lines[i]).substr(2));
    if (body.starts_with("kforecast:")) start = i;
  }
  if (!start) return std::optional<LaunchSpec>{};
  std::string text;
  for (std::size_t i = *start; i + 1 < first_line; ++i) {
    std::string_view body = trim(lines[i]).substr(2);
    if (!body.empty() && body.front() == ' ') body.remove_prefix(1);
    if (i == *start) body = trim(body).substr(std::string_view("kforecast:").size());
    const std::string_view bare = trim(body);
    if (bare == "[kernel.args]") body = "[args]";
    if (bare == "[[kernel]]") body = "";
    text += std::string(body) + "\n";
  }
  const auto offset = static_cast<std::uint32_t>(*start);
  auto root = parse_toml(text, display_name, offset);
  if (!root) return std::unexpected(root.error());
  Problems problems(display_name, offset);
  auto spec = read_spec(*root, problems, std::string(kernel_name));
  spec.origin = fmt::format("{}:{}", display_name, *start + 1);
  if (!problems.empty()) return usage_error(problems.joined());
  return std::optional<LaunchSpec>(std::move(spec));
}

const LaunchSpec* find_spec(const std::vector<LaunchSpec>& specs, std::string_view kernel, std::string_view file) {
  const std::string_view base = kernel.substr(0, kernel.find('<'));
  const LaunchSpec* found = nullptr;
  for (const auto& spec : specs) {
    if (!spec.file.empty() && !file.empty() && !file.ends_with(spec.file) &&
        !std::string_view(spec.file).ends_with(file))
      continue;
    if (spec.name == kernel) return &spec;
    if (found == nullptr && spec.base_name() == base) found = &spec;
  }
  return found;
}

}  // namespace kforecast::bench
