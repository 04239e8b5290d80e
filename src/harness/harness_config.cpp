// SPDX-License-Identifier: Apache-2.0
#include "harness/harness_config.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "base/shell_text.hpp"

#include "config/ascii_toml.hpp"
#include "config/toml_parser.hpp"
#include "config/toml_problems.hpp"

namespace kforecast::harness {
namespace {

constexpr std::array<std::string_view, 9> harness_keys{"name", "build",  "run",             "format", "time",
                                                       "list", "rounds", "timeout_seconds", "map"};
constexpr std::array<std::string_view, 2> map_keys{"kernels", "benchmarks"};

using Problems = config::TomlProblems;

std::optional<std::string> text_of(const toml::node& node) { return node.value_exact<std::string>(); }

void read_map(const toml::table& table, Problems& problems, Harness& harness) {
  BenchmarkMap map;
  map.origin = problems.origin(table.source());
  for (auto&& [key, node] : table) {
    const std::string_view name = key.str();
    if (std::ranges::find(map_keys, name) == map_keys.end()) {
      problems.add(key.source(), fmt::format("unknown key '{}' in [[harness.map]] (it takes kernels, benchmarks)", name));
    } else if (name == "benchmarks") {
      auto text = text_of(node);
      if (!text || text->empty())
        problems.add(node.source(), "[[harness.map]] key 'benchmarks' must be a non-empty string: the benchmark "
                                    "filter for these kernels, e.g. \"BM_Gemm.*\"");
      else
        map.benchmarks = *text;
    } else {
      const toml::array* array = node.as_array();
      bool good = array != nullptr && !array->empty();
      if (good)
        for (const toml::node& item : *array) {
          auto glob = text_of(item);
          if (!glob || glob->empty()) {
            good = false;
            break;
          }
          map.kernels.push_back(*glob);
        }
      if (!good)
        problems.add(node.source(), "[[harness.map]] key 'kernels' must be a non-empty list of globs over kernel "
                                    "files or names, e.g. [\"src/gemm/*.cu\", \"gemm_*\"]");
    }
  }
  if (map.kernels.empty() && !table.contains("kernels"))
    problems.add(table.source(), "a [[harness.map]] table needs 'kernels' (globs of kernel files or names)");
  if (map.benchmarks.empty() && !table.contains("benchmarks"))
    problems.add(table.source(), "a [[harness.map]] table needs 'benchmarks' (the filter for those kernels)");
  harness.maps.push_back(std::move(map));
}

void read_string_key(const toml::node& node, std::string_view name, Problems& problems, std::string& target) {
  auto text = text_of(node);
  if (!text)
    problems.add(node.source(), fmt::format("[[harness]] key '{}' must be a string", name));
  else
    target = *text;
}

Harness read_harness(const toml::table& table, Problems& problems) {
  Harness harness;
  harness.origin = problems.origin(table.source());
  for (auto&& [key, node] : table) {
    const std::string_view name = key.str();
    if (std::ranges::find(harness_keys, name) == harness_keys.end()) {
      problems.add(key.source(), fmt::format("unknown key '{}' in [[harness]] (it takes name, build, run, format, "
                                             "list, time, rounds, timeout_seconds and [[harness.map]] tables)",
                                             name));
    } else if (name == "name") {
      read_string_key(node, name, problems, harness.name);
    } else if (name == "build") {
      read_string_key(node, name, problems, harness.build);
    } else if (name == "list") {
      read_string_key(node, name, problems, harness.list);
      if (text_of(node) && harness.list.empty())
        problems.add(node.source(), "[[harness]] key 'list' must be a non-empty command that prints the benchmarks' "
                                    "names, one per line");
    } else if (name == "run") {
      read_string_key(node, name, problems, harness.run);
      if (!harness.run.empty() && harness.run.find("{filter}") == std::string::npos)
        problems.add(node.source(), "[[harness]] key 'run' must hold {filter}, where the benchmark filter of the "
                                    "changed kernels goes (only their benchmarks run)");
    } else if (name == "format") {
      std::string text;
      read_string_key(node, name, problems, text);
      if (auto format = output_format(text))
        harness.format = *format;
      else if (text_of(node))
        problems.add(node.source(), fmt::format("[[harness]] key 'format' is \"{}\"; expected \"gbench\", "
                                                "\"nvbench\", \"pytest-benchmark\" or \"simple\"",
                                                text));
    } else if (name == "time") {
      const auto text = text_of(node);
      if (text == "real")
        harness.time = TimeField::real;
      else if (text == "cpu")
        harness.time = TimeField::cpu;
      else
        problems.add(node.source(), "[[harness]] key 'time' must be \"real\" (wall or GPU time) or \"cpu\"");
    } else if (name == "rounds") {
      auto rounds = node.value_exact<std::int64_t>();
      if (!rounds || *rounds < min_rounds || *rounds > max_rounds)
        problems.add(node.source(), fmt::format("[[harness]] key 'rounds' must be an integer from {} to {} (the most "
                                                "A B B A rounds of processes per kernel)",
                                                min_rounds, max_rounds));
      else
        harness.rounds = static_cast<int>(*rounds);
    } else if (name == "timeout_seconds") {
      auto seconds = node.value<double>();
      if (!seconds || *seconds < 1 || *seconds > 86400)
        problems.add(node.source(), "[[harness]] key 'timeout_seconds' must be a number from 1 to 86400");
      else
        harness.timeout_seconds = *seconds;
    } else if (!node.is_array_of_tables()) {
      problems.add(key.source(), "'harness.map' must be an array of tables: write [[harness.map]]");
    } else {
      for (const toml::node& item : *node.as_array()) read_map(*item.as_table(), problems, harness);
    }
  }
  if (harness.name.empty()) problems.add(table.source(), "a [[harness]] table needs a non-empty 'name'");
  if (harness.time == TimeField::cpu && !reports_cpu_time(harness.format))
    problems.add(table.source(), fmt::format("[[harness]] '{}': time = \"cpu\" needs a format that reports CPU "
                                             "time (gbench or nvbench), not {}",
                                             harness.name, format_name(harness.format)));
  if (!table.contains("run")) problems.add(table.source(), "a [[harness]] table needs 'run' (a command holding {filter})");
  if (!table.contains("format"))
    problems.add(table.source(), "a [[harness]] table needs 'format' (gbench, nvbench, pytest-benchmark or simple)");
  if (harness.maps.empty() && !table.contains("map") && !table.contains("list"))
    problems.add(table.source(), "a [[harness]] table needs at least one [[harness.map]] (which kernels its "
                                 "benchmarks exercise), or 'list' (a command printing its benchmarks' names, so "
                                 "kforecast learns the map by running each under the capture library)");
  return harness;
}

bool glob_matches(const std::string& glob, std::string_view text) {
  return ::fnmatch(glob.c_str(), std::string(text).c_str(), 0) == 0;
}

}  // namespace

Result<std::vector<Harness>> read_harnesses(std::string_view toml_text, std::string_view display_name) {
  std::vector<Harness> harnesses;
  if (toml_text.empty()) return harnesses;
  const auto ascii = config::to_ascii_toml(toml_text);
  if (!ascii) return usage_error(fmt::format("{}: {}", display_name, ascii.error().what));
  toml::table root;
  try {
    root = toml::parse(*ascii, display_name);
  } catch (const toml::parse_error& error) {
    return usage_error(fmt::format("{}:{}:{}: invalid TOML: {}", display_name, error.source().begin.line,
                                   error.source().begin.column, error.description()));
  }
  const toml::node* node = root.get("harness");
  if (node == nullptr) return harnesses;
  Problems problems(display_name);
  if (!node->is_array_of_tables()) {
    problems.add(node->source(), "'harness' must be an array of tables: write [[harness]]");
    return usage_error(problems.joined());
  }
  for (const toml::node& item : *node->as_array()) {
    Harness harness = read_harness(*item.as_table(), problems);
    if (!harness.name.empty() && std::ranges::find(harnesses, harness.name, &Harness::name) != harnesses.end())
      problems.add(item.source(), fmt::format("a second [[harness]] named '{}'; names must differ", harness.name));
    harnesses.push_back(std::move(harness));
  }
  if (!problems.empty()) return usage_error(problems.joined());
  return harnesses;
}

std::optional<HarnessChoice> harness_for(const std::vector<Harness>& harnesses, std::string_view file,
                                         std::string_view kernel) {
  const std::size_t scope = kernel.rfind("::");
  const std::string_view leaf = scope == std::string_view::npos ? kernel : kernel.substr(scope + 2);
  for (const Harness& harness : harnesses)
    for (const BenchmarkMap& map : harness.maps)
      for (const std::string& glob : map.kernels)
        if (glob_matches(glob, file) || glob_matches(glob, kernel) || glob_matches(glob, leaf))
          return HarnessChoice{&harness, &map};
  return std::nullopt;
}

bool fits_in_command(std::string_view benchmark) {
  return !shell_active_or_quote(benchmark) && benchmark.find('\'') == std::string_view::npos;
}

std::string filter_selecting(OutputFormat format, const std::vector<std::string>& benchmarks) {
  if (benchmarks.empty()) return "";
  if (format == OutputFormat::pytest_benchmark) return fmt::format("{}", fmt::join(benchmarks, " or "));
  if (format != OutputFormat::gbench) return benchmarks.front();
  std::string filter = "^(";
  for (std::size_t i = 0; i < benchmarks.size(); ++i) {
    if (i > 0) filter += '|';
    for (const char c : benchmarks[i]) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) filter += '\\';
      filter += c;
    }
  }
  return filter + ")$";
}

std::string expand_command(std::string_view command, std::string_view filter, std::string_view out) {
  std::string text;
  for (std::size_t at = 0; at < command.size();) {
    if (command.substr(at).starts_with("{filter}")) {
      text += filter;
      at += 8;
    } else if (command.substr(at).starts_with("{out}")) {
      text += out;
      at += 5;
    } else {
      text += command[at++];
    }
  }
  return text;
}

}  // namespace kforecast::harness
