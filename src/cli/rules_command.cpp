// SPDX-License-Identifier: Apache-2.0
// `kforecast rules [ID]`: the lint rules in force (built-in and the repository's), or one rule
// explained with an example that fires and its corrected form (lint/rule_text.hpp).

#include <fmt/format.h>

#include "base/nearest_name.hpp"
#include "cli/handlers.hpp"
#include "lint_run/lint_rules.hpp"
#include "lint/rule_text.hpp"

namespace kforecast::cli {

Result<ExitCode> rules_command(const Invocation& invocation, Context& context) {
  if (invocation.positional.size() > 1) return usage_error("'kforecast rules' takes at most one rule id");
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  auto rules = lint_run::configured_rules(*config);
  if (!rules) return std::unexpected(rules.error());
  if (invocation.positional.empty()) {
    context.out << lint::rule_table(rules->rules());
    return ExitCode::pass;
  }
  const std::string& id = invocation.positional.front();
  const lint::Rule* rule = rules->find(id);
  if (rule == nullptr) {
    std::vector<std::string_view> ids;
    for (const auto& each : rules->rules()) ids.push_back(each.id);
    return usage_error(fmt::format("no rule '{}'{}; 'kforecast rules' lists them", id, did_you_mean(id, ids)));
  }
  context.out << lint::rule_explanation(*rule);
  return ExitCode::pass;
}

}  // namespace kforecast::cli
