// SPDX-License-Identifier: Apache-2.0
// `kforecast rules [ID]`: the lint rules in force (built-in and the repository's), or one rule
// explained with an example that fires and its corrected form.

#include <algorithm>

#include <fmt/format.h>

#include "base/nearest_name.hpp"
#include "cli/handlers.hpp"
#include "gate/lint_rules.hpp"
#include "lint/linter.hpp"

namespace kforecast::cli {
namespace {

std::string indented(std::string_view text) {
  std::string out;
  while (!text.empty() && text.front() == '\n') text.remove_prefix(1);
  while (!text.empty()) {
    const std::size_t end = text.find('\n');
    out += "    " + std::string(text.substr(0, end)) + "\n";
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return out;
}

}  // namespace

Result<ExitCode> rules_command(const Invocation& invocation, Context& context) {
  if (invocation.positional.size() > 1) return usage_error("'kforecast rules' takes at most one rule id");
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  auto rules = gate::configured_rules(*config);
  if (!rules) return std::unexpected(rules.error());
  if (invocation.positional.empty()) {
    std::size_t width = 0;
    for (const auto& rule : rules->rules()) width = std::max(width, rule.id.size());
    for (const auto& rule : rules->rules())
      context.out << fmt::format("{:<{}}  {:<7}  {}\n", rule.id, width, lint::to_string(rule.severity), rule.summary);
    context.out << "\n'kforecast rules ID' explains one; silence one on a line with '// kforecast: ignore ID'.\n";
    return ExitCode::pass;
  }
  const std::string& id = invocation.positional.front();
  const lint::Rule* rule = rules->find(id);
  if (rule == nullptr) {
    std::vector<std::string_view> ids;
    for (const auto& each : rules->rules()) ids.push_back(each.id);
    return usage_error(fmt::format("no rule '{}'{}; 'kforecast rules' lists them", id, did_you_mean(id, ids)));
  }
  context.out << fmt::format("{} ({})\n  {}\n\n", rule->id, lint::to_string(rule->severity), rule->summary)
              << fmt::format("  {}\n\n", lint::render_message(rule->message, "..."))
              << fmt::format("  Guide: {}\n  Defined at: {}\n", rule->guide, rule->origin);
  if (!rule->bad.empty()) context.out << "\nFires on:\n" << indented(rule->bad);
  if (!rule->good.empty()) context.out << "\nCorrected:\n" << indented(rule->good);
  return ExitCode::pass;
}

}  // namespace kforecast::cli
