// SPDX-License-Identifier: Apache-2.0
#include "lint/rule_text.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "lint/linter.hpp"

namespace kforecast::lint {
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

std::string rule_table(std::span<const Rule> rules) {
  std::size_t width = 0, precision_width = 9;
  for (const auto& rule : rules) {
    width = std::max(width, rule.id.size());
    precision_width = std::max(precision_width, rule.precision.size());
  }
  std::string out;
  bool any_off = false;
  for (const auto& rule : rules) {
    any_off = any_off || !rule.enabled;
    out += fmt::format("{:<{}}  {:<7}  {:<6}  {:<{}}  {}\n", rule.id, width, to_string(rule.severity),
                       rule.enabled ? "on" : "opt-in", rule.precision.empty() ? "-" : rule.precision, precision_width,
                       rule.summary);
  }
  out +=
      "\nPrecision: the share of a rule's findings judged right on real kernels (benchmarks/lint-judged); '-': not "
      "measured.\n";
  if (any_off)
    out +=
        "An opt-in rule runs where a rule file in lint.rules_path turns it on: [[rule]] id = \"ID\" enabled = "
        "true.\n";
  out += "'kforecast rules ID' explains one; silence one on a line with '// kforecast: ignore ID'.\n";
  return out;
}

std::string rule_description(const Rule& rule) {
  const Matcher& match = rule.match;
  if (match.kind == MatcherKind::compiler_fact)
    return render_message(rule.message, fmt::format("more than {} {}", match.above,
                                                    match.fact == "registers" ? "registers" : "bytes"));
  if (match.kind == MatcherKind::launch_fact)
    return render_message(rule.message, match.fact == "occupancy"
                                            ? fmt::format("below {}%", match.below.value_or(match.above))
                                            : std::string("a block larger than __launch_bounds__"));
  if (!rule.bad.empty()) {
    Rule on = rule;  // an opt-in rule is described by what it finds when turned on
    on.enabled = true;
    const auto found = lint_source("example.cu", rule.bad, std::span(&on, 1));
    if (!found.empty()) return found.front().message;
  }
  return render_message(rule.message, rule.summary);
}

std::string rule_explanation(const Rule& rule) {
  std::string out =
      fmt::format("{} ({}{})\n  {}\n\n", rule.id, to_string(rule.severity),
                  rule.enabled ? "" : ", opt-in: off unless a rule file sets enabled = true", rule.summary) +
      fmt::format("  {}\n", render_message(rule.message, "...")) +
      (rule.note.empty()
           ? std::string()
           : fmt::format("  {}\n", render_placeholder(render_message(rule.note, "..."), "{fix}", "..."))) +
      "\n" + fmt::format("  Guide: {}\n  Defined at: {}\n", rule.guide, rule.origin);
  if (!rule.precision.empty())
    out += fmt::format("  Precision on real kernels (benchmarks/lint-judged): {}\n", rule.precision);
  if (!rule.bad.empty()) out += "\nFires on:\n" + indented(rule.bad);
  if (!rule.good.empty()) out += "\nCorrected:\n" + indented(rule.good);
  return out;
}

}  // namespace kforecast::lint
