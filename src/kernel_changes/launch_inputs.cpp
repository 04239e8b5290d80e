// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/launch_inputs.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "kernel_changes/launch_definitions.hpp"
#include "kernels/launch_sites.hpp"
#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernel_changes {

using kernels::Function;
using kernels::FunctionKind;
using kernels::is_keyword;
using kernels::LaunchSite;
using kernels::lex;
using kernels::Parameter;
using kernels::RevisionSources;
using kernels::Token;

namespace {

// launch -> grid -> BN -> ...: deep enough for a grid sized by a tile sized by a constant.
constexpr int deepest_step = 3;
// Far above the names a real launch's arguments reach; keeps hostile input from running long.
constexpr std::size_t most_names_per_launch = 64;

std::string_view last_name(std::string_view qualified) {
  const std::size_t colons = qualified.rfind("::");
  return colons == std::string_view::npos ? qualified : qualified.substr(colons + 2);
}

// The reasons one launch, the same text at both revisions, now runs with something else.
std::vector<std::string> changed_inputs(const LaunchSite& base_launch, Definitions& base, const LaunchSite& head_launch,
                                        Definitions& head, std::string_view where, bool deduces) {
  struct Step {
    std::string name;
    std::string root;  // the name the launch itself writes
    LaunchPart part;
    int depth;
  };
  std::deque<Step> pending;
  std::set<std::string, std::less<>> seen;
  const auto add = [&](const std::vector<std::string>& names, const std::string* root, LaunchPart part, int depth) {
    for (const auto& name : names) {
      if (seen.size() >= most_names_per_launch || !seen.insert(name).second) continue;
      pending.push_back({name, root ? *root : name, part, depth});
    }
  };
  add(names_used(head_launch.compared_template_arguments), nullptr, LaunchPart::template_argument, 0);
  add(names_used(head_launch.configuration), nullptr, LaunchPart::configuration, 0);
  const std::size_t base_at = base.where_run(base_launch), head_at = head.where_run(head_launch);
  std::vector<std::string> reasons;
  // A kernel template deduces its template arguments from the classes its arguments are of.
  if (deduces)
    for (const std::string& argument : head_launch.argument_names) {
      const auto before = base.declared_class(argument, base_at);
      const auto after = head.declared_class(argument, head_at);
      if (!before && !after) continue;
      if (before != after || base.find_class(*before).text != head.find_class(*after).text)
        reasons.push_back(fmt::format("launch template argument deduced from {} changed through {} ({})", argument,
                                      after.value_or(*before), where));
    }
  while (!pending.empty()) {
    const Step step = std::move(pending.front());
    pending.pop_front();
    const Definition& before = base.find(step.name, base_at, step.part);
    const Definition& after = head.find(step.name, head_at, step.part);
    const std::string_view part =
        step.part == LaunchPart::template_argument ? "template argument" : "configuration argument";
    const std::string& bound_by = after.bound_by.empty() ? before.bound_by : after.bound_by;
    const std::string in = bound_by.empty() ? std::string() : " in " + bound_by;
    if (before.text != after.text)
      reasons.push_back(step.name == step.root ? fmt::format("launch {} {} changed{} ({})", part, step.name, in, where)
                                               : fmt::format("launch {} {} changed through {}{} ({})", part, step.root,
                                                             step.name, in, where));
    if (step.depth + 1 > deepest_step) continue;
    std::vector<std::string> next = after.names;
    for (const auto& name : before.names)
      if (std::ranges::find(next, name) == next.end()) next.push_back(name);
    std::erase(next, step.name);
    add(next, &step.root, step.part, step.depth + 1);
  }
  return reasons;
}

// The names a template header declares: "template <typename P, int N = 4>" gives P and N.
std::vector<std::string> template_parameter_names(std::string_view header) {
  std::vector<std::string> names;
  std::string last;
  int depth = 0;
  bool in_default = false;
  for (const Token& t : lex(header)) {
    if (t.is_punct("<") || t.is_punct("(")) ++depth;
    if (t.is_punct(")")) --depth;
    const bool closes = t.is_punct(">") && --depth == 0;
    if (depth == 1 && t.is_identifier() && !is_keyword(t.text()) && !in_default) last = t.text();
    if (depth == 1 && t.is_punct("=")) in_default = true;
    if ((depth == 1 && t.is_punct(",")) || closes) {
      if (!last.empty()) names.push_back(std::move(last));
      last.clear();
      in_default = false;
    }
  }
  return names;
}

// Whether a kernel `kernel` of `path`'s closure is a template with a parameter of a template
// parameter's type (template <typename P> __global__ void k(P p)): a launch without template
// arguments then instantiates it with its arguments' types.
bool deduces_template_arguments(const RevisionSources& sources, const std::string& path, std::string_view kernel) {
  const std::string_view name = last_name(kernel);
  for (const std::string& file : sources.closure(path))
    for (const Function& f : sources.scanned(file).functions) {
      if (f.kind != FunctionKind::global || f.name != name || f.template_parameters.empty()) continue;
      const auto template_names = template_parameter_names(f.template_parameters);
      for (const Parameter& p : f.parameters)
        for (const Token& t : lex(p.type))
          if (t.is_identifier() && std::ranges::find(template_names, t.text()) != template_names.end()) return true;
    }
  return false;
}

}  // namespace

std::vector<LaunchInputChange> changed_launch_inputs(const RevisionSources& base, const std::string& base_path,
                                                     const RevisionSources& head, const std::string& head_path) {
  const auto& head_launches = head.launches(head_path);
  if (head_launches.empty()) return {};
  using Launch = std::tuple<std::string_view, std::string_view, std::string_view>;  // kernel, arguments, configuration
  std::map<Launch, std::deque<const LaunchSite*>> before;
  for (const LaunchSite& site : base.launches(base_path))
    before[{site.kernel, site.compared_template_arguments, site.configuration}].push_back(&site);
  std::optional<Definitions> base_definitions, head_definitions;
  std::vector<LaunchInputChange> changes;
  for (const LaunchSite& site : head_launches) {
    const auto same = before.find({site.kernel, site.compared_template_arguments, site.configuration});
    if (same == before.end() || same->second.empty()) continue;  // new text: changed_launches' to report
    const LaunchSite& base_site = *same->second.front();
    same->second.pop_front();
    const bool deduces = site.template_arguments.empty() && !site.argument_names.empty() &&
                         deduces_template_arguments(head, head_path, site.kernel);
    if (site.template_arguments.empty() && site.configuration.empty() && !deduces) continue;
    if (!base_definitions) base_definitions.emplace(base, base_path), head_definitions.emplace(head, head_path);
    const std::string where = fmt::format("{}:{}", head_path, site.line);
    for (std::string& reason : changed_inputs(base_site, *base_definitions, site, *head_definitions, where, deduces))
      changes.push_back({site.kernel, site.line, std::move(reason)});
  }
  return changes;
}

}  // namespace kforecast::kernel_changes
