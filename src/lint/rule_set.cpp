// SPDX-License-Identifier: Apache-2.0
// Reads rule files. toml++ sees ASCII only (config/ascii_toml.hpp says why), and every field is
// checked against what the matchers understand, so a typo in a repository's rules is an error
// with its place, never a rule that silently matches nothing.

#include "lint/rule_set.hpp"

#include <algorithm>
#include <array>
#include <optional>

#include <fmt/format.h>

#include "base/nearest_name.hpp"
#include "config/ascii_toml.hpp"
#include "config/toml_parser.hpp"

namespace kforecast::lint {
namespace {

constexpr std::array<std::string_view, 13> rule_fields{"id",       "severity",      "summary", "message", "guide",
                                                       "bad",      "good",          "note",    "enabled", "precision",
                                                       "variants", "variant_notes", "match"};
constexpr std::array<std::string_view, 14> match_fields{
    "kind",  "scope", "pattern", "not_after", "only_if_uses", "unless_uses",  "unless_in_block",
    "names", "fact",  "above",   "below",     "multiple",     "min_pointers", "skipping_threads"};
constexpr std::array<std::string_view, 5> compiler_facts{"registers", "spill_bytes", "stack_frame_bytes",
                                                         "shared_bytes", "local_bytes"};
constexpr std::array<std::string_view, 2> launch_facts{"occupancy", "launch_bounds"};
constexpr std::array<std::string_view, 8> token_classes{"@double-literal", "@double-operand", "@double-arguments",
                                                        "@runtime-arguments", "@number", "@identifier", "@string",
                                                        "@any"};

class Reader {
 public:
  explicit Reader(std::string_view file) : m_file(file) {}

  std::string where(const toml::node& node) const {
    return fmt::format("{}:{}:{}", m_file, node.source().begin.line, node.source().begin.column);
  }
  void problem(const toml::node& node, std::string message) {
    m_problems.push_back(fmt::format("{}: {}", where(node), std::move(message)));
  }
  bool ok() const { return m_problems.empty(); }
  std::string joined() const {
    std::string text;
    for (const auto& line : m_problems) text += (text.empty() ? "" : "\n") + line;
    return text;
  }

  void text(const toml::table& table, std::string_view key, std::string& out, std::string_view context) {
    const toml::node* node = table.get(key);
    if (node == nullptr) return;
    if (auto value = node->value<std::string>())
      out = *value;
    else
      problem(*node, fmt::format("{} '{}' must be a string", context, key));
  }

  void text_table(const toml::table& table, std::string_view key,
                  std::map<std::string, std::string, std::less<>>& out) {
    const toml::node* node = table.get(key);
    if (node == nullptr) return;
    const toml::table* entries = node->as_table();
    if (entries == nullptr) return problem(*node, fmt::format("rule '{}' must be a table of strings", key));
    for (auto&& [name, value] : *entries) {
      if (auto text = value.value<std::string>())
        out[std::string(name.str())] = *text;
      else
        problem(value, fmt::format("rule '{}.{}' must be a string", key, name.str()));
    }
  }

  void strings(const toml::table& table, std::string_view key, std::vector<std::string>& out) {
    const toml::node* node = table.get(key);
    if (node == nullptr) return;
    const toml::array* array = node->as_array();
    if (array == nullptr) return problem(*node, fmt::format("match '{}' must be an array of strings", key));
    out.clear();
    for (const auto& element : *array) {
      if (auto value = element.value<std::string>(); value && !value->empty())
        out.push_back(*value);
      else
        problem(element, fmt::format("match '{}' must hold non-empty strings", key));
    }
  }

  template <class Number>
  void number(const toml::table& table, std::string_view key, Number& out, double min) {
    const toml::node* node = table.get(key);
    if (node == nullptr) return;
    std::optional<double> value;
    if (auto integer = node->value_exact<std::int64_t>())
      value = static_cast<double>(*integer);
    else if (auto real = node->value_exact<double>())
      value = real;
    if (!value || !(*value >= min) || *value > 1e12)
      return problem(*node, fmt::format("match '{}' must be a number of at least {}", key, min));
    out = static_cast<Number>(*value);
  }

  void unknown_fields(const toml::table& table, std::span<const std::string_view> known, std::string_view context) {
    for (auto&& [key, node] : table)
      if (std::ranges::find(known, key.str()) == known.end())
        problem(node, fmt::format("unknown {} field '{}'{}", context, key.str(), did_you_mean(key.str(), known)));
  }

  void matcher(const toml::table& table, Matcher& match) {
    unknown_fields(table, match_fields, "match");
    std::string kind, scope;
    text(table, "kind", kind, "match");
    if (kind.empty()) return problem(table, "[rule.match] needs a 'kind'");
    if (auto parsed = matcher_kind_from(kind))
      match.kind = *parsed;
    else
      return problem(*table.get("kind"), fmt::format("unknown matcher kind '{}'", kind));
    text(table, "scope", scope, "match");
    if (scope == "kernel" || scope.empty())
      match.scope = Scope::kernel;
    else if (scope == "device")
      match.scope = Scope::device;
    else if (scope == "file")
      match.scope = Scope::file;
    else
      problem(*table.get("scope"), fmt::format("scope '{}': expected kernel, device or file", scope));
    strings(table, "pattern", match.pattern);
    strings(table, "not_after", match.not_after);
    strings(table, "only_if_uses", match.only_if_uses);
    strings(table, "unless_uses", match.unless_uses);
    strings(table, "unless_in_block", match.unless_in_block);
    strings(table, "names", match.names);
    text(table, "fact", match.fact, "match");
    number(table, "above", match.above, 0);
    if (table.contains("below")) {
      double below = 0;
      number(table, "below", below, 0);
      match.below = below;
    }
    number(table, "multiple", match.multiple, 1);
    number(table, "min_pointers", match.min_pointers, 1);
    text(table, "skipping_threads", match.skipping_threads, "match");
    if (match.skipping_threads != "continue" && match.skipping_threads != "exit")
      problem(*table.get("skipping_threads"),
              fmt::format("skipping_threads '{}': expected continue or exit", match.skipping_threads));
    check_matcher(table, match);
  }

  void check_matcher(const toml::table& table, const Matcher& match) {
    if (match.kind == MatcherKind::tokens) {
      if (match.pattern.empty()) problem(table, "a tokens matcher needs a non-empty 'pattern'");
      for (const auto& element : match.pattern) {
        if (element.starts_with('@') && std::ranges::find(token_classes, element) == token_classes.end())
          problem(*table.get("pattern"),
                  fmt::format("unknown token class '{}'{}", element, did_you_mean(element, token_classes)));
        if (element.find("||") != std::string::npos || element.starts_with('|') || element.ends_with('|'))
          problem(*table.get("pattern"), fmt::format("pattern element '{}' has an empty alternative", element));
      }
    }
    if (match.kind == MatcherKind::compiler_fact &&
        std::ranges::find(compiler_facts, match.fact) == compiler_facts.end())
      problem(table, fmt::format("compiler_fact needs 'fact', one of: {}", fmt::join(compiler_facts, ", ")));
    if (match.kind == MatcherKind::launch_fact && std::ranges::find(launch_facts, match.fact) == launch_facts.end())
      problem(table, fmt::format("launch_fact needs 'fact', one of: {}", fmt::join(launch_facts, ", ")));
  }

  // Reads one [[rule]] over `rule` (a copy of the known rule, or a fresh one).
  void rule(const toml::table& table, Rule& rule, bool known) {
    unknown_fields(table, rule_fields, "rule");
    std::string severity;
    text(table, "severity", severity, "rule");
    if (!severity.empty()) {
      if (auto parsed = severity_from(severity))
        rule.severity = *parsed;
      else
        problem(*table.get("severity"), fmt::format("severity '{}': expected note, warning or error", severity));
    }
    text(table, "summary", rule.summary, "rule");
    text(table, "message", rule.message, "rule");
    text(table, "guide", rule.guide, "rule");
    text(table, "bad", rule.bad, "rule");
    text(table, "good", rule.good, "rule");
    text(table, "note", rule.note, "rule");
    text_table(table, "variants", rule.variants);
    text_table(table, "variant_notes", rule.variant_notes);
    text(table, "precision", rule.precision, "rule");
    if (const toml::node* guide = table.get("guide"); guide && !rule.guide.starts_with("https://"))
      problem(*guide, "guide must be an https:// link to the CUDA guide section");
    if (const toml::node* match = table.get("match")) {
      if (const toml::table* match_table = match->as_table()) {
        rule.match = Matcher{};
        matcher(*match_table, rule.match);
      } else {
        problem(*match, "'match' must be a table ([rule.match])");
      }
    }
    if (!known) {
      for (std::string_view required : {"severity", "summary", "message", "guide", "match"})
        if (!table.contains(required)) problem(table, fmt::format("new rule '{}' needs '{}'", rule.id, required));
    }
    rule.origin = where(table);
  }

 private:
  std::string_view m_file;
  std::vector<std::string> m_problems;
};

bool valid_id(std::string_view id) {
  if (id.empty() || id.size() > 64 || id.front() == '-' || id.back() == '-') return false;
  return std::ranges::all_of(id, [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

}  // namespace

Result<void> RuleSet::read(std::string_view text, std::string_view name) {
  const auto ascii = config::to_ascii_toml(text);
  if (!ascii)
    return usage_error(fmt::format("{}:{}:{}: {}: rule files must be ASCII outside comments and one-line strings", name,
                                   ascii.error().where.line, ascii.error().where.column, ascii.error().what));
  toml::table root;
  try {
    root = toml::parse(*ascii, name);
  } catch (const toml::parse_error& error) {
    const auto& where = error.source().begin;
    return usage_error(fmt::format("{}:{}:{}: invalid TOML: {}", name, where.line, where.column, error.description()));
  }
  Reader reader(name);
  std::vector<Rule> rules = m_rules;
  for (auto&& [key, node] : root) {
    if (key.str() != "rule") {
      reader.problem(node, fmt::format("unknown top-level key '{}': a rule file holds [[rule]] tables", key.str()));
      continue;
    }
    const toml::array* array = node.as_array();
    if (array == nullptr || !array->is_array_of_tables()) {
      reader.problem(node, "'rule' must be an array of tables: write [[rule]]");
      continue;
    }
    for (const auto& element : *array) {
      const toml::table& table = *element.as_table();
      const auto id = table["id"].value<std::string>();
      if (!id || !valid_id(*id)) {
        reader.problem(table, "each [[rule]] needs an 'id' of lowercase letters, digits and hyphens");
        continue;
      }
      auto existing = std::ranges::find(rules, *id, &Rule::id);
      std::optional<bool> enabled;
      if (auto flag = table["enabled"]; flag) {
        if (!flag.is_boolean()) {
          reader.problem(*flag.node(), "'enabled' must be true or false");
          continue;
        }
        enabled = flag.value<bool>();
      }
      const bool known = existing != rules.end();
      Rule rule = known ? *existing : Rule{.id = *id};
      reader.rule(table, rule, known);
      if (enabled) rule.enabled = *enabled;
      if (known)
        *existing = std::move(rule);
      else
        rules.push_back(std::move(rule));
    }
  }
  if (!reader.ok()) return usage_error(reader.joined());
  m_rules = std::move(rules);
  return {};
}

void RuleSet::remove(std::string_view id) {
  std::erase_if(m_rules, [&](const Rule& rule) { return rule.id == id; });
}

const Rule* RuleSet::find(std::string_view id) const {
  auto it = std::ranges::find(m_rules, id, &Rule::id);
  return it == m_rules.end() ? nullptr : &*it;
}

RuleSet builtin_rules() {
  RuleSet set;
  for (const auto& source : builtin_rule_sources())
    if (auto read = set.read(source.text, source.name); !read)
      throw Fatal(ExitCode::could_not_run, read.error().message);
  return set;
}

}  // namespace kforecast::lint
