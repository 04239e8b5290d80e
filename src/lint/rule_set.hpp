// SPDX-License-Identifier: Apache-2.0
#pragma once

// The rules in force: the built-in ones (rules/*.toml, compiled in), then a repository's own
// rule files read over them. A rule file holds [[rule]] tables. A rule with a new id is added and
// must give severity, summary, message, guide and [rule.match]; a rule with a known id overrides
// only the fields it gives (severity = "error" alone promotes a built-in rule); `enabled = false`
// turns a rule off and `enabled = true` turns an opt-in rule on (an off rule is still listed, and
// never runs). Rule files are untrusted input: every problem is an Error naming
// "file:line:column" and the field.

#include <span>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "lint/rule.hpp"

namespace kforecast::lint {

class RuleSet {
 public:
  // Reads one rule file over the set. On an error the set is unchanged.
  Result<void> read(std::string_view text, std::string_view name);

  void remove(std::string_view id);

  std::span<const Rule> rules() const { return m_rules; }
  const Rule* find(std::string_view id) const;

 private:
  std::vector<Rule> m_rules;
};

// The built-in rules. A built-in file that does not parse is a build defect: Fatal.
RuleSet builtin_rules();

}  // namespace kforecast::lint
