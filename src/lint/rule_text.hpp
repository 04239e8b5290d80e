// SPDX-License-Identifier: Apache-2.0
#pragma once

// The rules as `kforecast rules` prints them: a table of all, or one rule explained with an
// example that fires and its corrected form.

#include <span>
#include <string>

#include "lint/rule.hpp"

namespace kforecast::lint {

// One line per rule (id, severity, on or opt-in, measured precision, summary; columns padded),
// then what the precision is, how to turn an opt-in rule on, how to read more and how to silence
// one.
std::string rule_table(std::span<const Rule> rules);

// The rule's severity, summary, message, guide and origin, then its examples indented.
std::string rule_explanation(const Rule& rule);

// The rule's message with "{match}" filled in, for a description without a finding (SARIF's
// fullDescription): from the finding on the rule's own bad example, or for a compiler or launch
// fact from its threshold ("more than 128 registers"); never an empty placeholder.
std::string rule_description(const Rule& rule);

}  // namespace kforecast::lint
