// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/library_kernels.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "kernel_changes/kernel_lookup.hpp"
#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernel_changes {

using kernels::Function;
using kernels::FunctionKind;
using kernels::is_keyword;
using kernels::lex;
using kernels::matching_angle;
using kernels::RevisionSources;
using kernels::Token;

namespace {

std::string_view last_part(std::string_view qualified) {
  const std::size_t colons = qualified.rfind("::");
  return colons == std::string_view::npos ? qualified : qualified.substr(colons + 2);
}

bool ends_with_kernel(std::string_view name) { return name.ends_with("kernel") || name.ends_with("Kernel"); }

// A class with a __device__ operator() that has a body, by the class's last name component.
using Ops = std::multimap<std::string, KernelSite, std::less<>>;

Ops device_call_operators(const RevisionSources& sources) {
  Ops ops;
  for (const auto& [path, text] : sources.files()) {
    const auto& functions = sources.scanned(path).functions;
    for (std::size_t i = 0; i < functions.size(); ++i) {
      const Function& f = functions[i];
      if (f.kind != FunctionKind::device || !f.has_body || f.name != "operator()") continue;
      const std::string_view qualified = f.qualified_name;
      if (!qualified.ends_with("::operator()")) continue;
      const std::string_view op = qualified.substr(0, qualified.size() - std::string_view("::operator()").size());
      ops.emplace(std::string(last_part(op)), KernelSite{path, f.qualified_name, f.whole.first_line, i});
    }
  }
  return ops;
}

std::set<std::string, std::less<>> kernel_names(const RevisionSources& sources) {
  std::set<std::string, std::less<>> names;
  for (const auto& [path, text] : sources.files())
    for (const Function& f : sources.scanned(path).functions)
      if (f.kind == FunctionKind::global) names.insert(f.name);
  return names;
}

// The identifiers at the top level of the template arguments between `open` and `close`, each
// the last component of a name: device_kernel<ns::Op, 4> gives "Op".
std::vector<std::string_view> argument_names(const std::vector<Token>& tokens, std::size_t open, std::size_t close) {
  std::vector<std::string_view> names;
  int depth = 0;
  for (std::size_t i = open + 1; i < close; ++i) {
    const Token& t = tokens[i];
    if (t.is_punct("<") || t.is_punct("(")) ++depth;
    if (t.is_punct(">") || t.is_punct(")")) --depth;
    if (depth != 0 || !t.is_identifier() || is_keyword(t.text())) continue;
    const bool last = i + 1 >= close || !tokens[i + 1].is_punct("::");
    if (last) names.push_back(t.text());
  }
  return names;
}

}  // namespace

std::vector<LibraryKernel> library_kernels(const RevisionSources& sources) {
  const Ops ops = device_call_operators(sources);
  if (ops.empty()) return {};
  const auto kernels = kernel_names(sources);
  std::vector<LibraryKernel> found;
  std::set<std::pair<std::string, std::size_t>> taken;  // (file, function index) of an operator()
  auto add = [&](std::string_view launcher, std::string_view argument) {
    for (auto [it, end] = ops.equal_range(argument); it != end; ++it) {
      const KernelSite& site = it->second;
      if (!taken.insert({site.file, site.function_index}).second) continue;
      const std::string& qualified = site.qualified_name;
      found.push_back({std::string(launcher),
                       qualified.substr(0, qualified.size() - std::string_view("::operator()").size()), site});
    }
  };
  std::string wrapper_launcher;  // set where a launch's argument is no class: a wrapper's parameter
  std::set<std::string, std::less<>> template_arguments;  // every identifier given as one, anywhere
  std::vector<Token> tokens;
  for (const auto& [path, text] : sources.files()) {
    lex(text, tokens);
    for (std::size_t i = 1; i + 1 < tokens.size(); ++i) {
      if (!tokens[i].is_punct("<") || !tokens[i - 1].is_identifier()) continue;
      const std::size_t close = matching_angle(tokens, i, 64);
      if (close >= tokens.size()) continue;
      const auto arguments = argument_names(tokens, i, close);
      template_arguments.insert(arguments.begin(), arguments.end());
      const std::string_view name = tokens[i - 1].text();
      if (kernels.contains(name)) continue;
      std::size_t first = i - 1;
      while (first >= 2 && tokens[first - 1].is_punct("::") && tokens[first - 2].is_identifier()) first -= 2;
      // k<Compose<A, B>><<<...>>>: the `>>` closes Compose's arguments and k's; Compose, an
      // argument of k, is not what is launched.
      const bool nested = first > 0 && (tokens[first - 1].is_punct("<") || tokens[first - 1].is_punct(","));
      const bool launched = close + 2 < tokens.size() && tokens[close + 1].is_punct("<<") &&
                            tokens[close + 2].is_punct("<") && !(nested && tokens[close].is_punct(">>"));
      if (!launched && !ends_with_kernel(name)) continue;
      std::string launcher;
      for (std::size_t k = first; k < i; ++k) launcher += tokens[k].text();
      for (const std::string_view argument : arguments) {
        if (ops.contains(argument))
          add(launcher, argument);
        else if (wrapper_launcher.empty())
          wrapper_launcher = launcher;
      }
    }
  }
  if (!wrapper_launcher.empty())
    for (const auto& [name, site] : ops)
      if (template_arguments.contains(name)) add(wrapper_launcher, name);
  return found;
}

void add_library_kernel_changes(const RevisionSources& base, const RevisionSources& head,
                                const std::map<std::string, std::string>& to_head_path,
                                const std::set<std::string, std::less<>>& touched, ChangeAnalysis& analysis) {
  const auto head_kernels = library_kernels(head);
  if (head_kernels.empty()) return;
  std::map<std::pair<std::string, std::string>, KernelSite> base_by_op;  // (head path, op) -> site
  for (const LibraryKernel& kernel : library_kernels(base)) {
    const auto mapped = to_head_path.find(kernel.body.file);
    base_by_op.emplace(std::pair(mapped == to_head_path.end() ? kernel.body.file : mapped->second, kernel.op),
                       kernel.body);
  }
  for (const LibraryKernel& kernel : head_kernels) {
    const auto closure = head.closure(kernel.body.file);
    if (std::ranges::none_of(closure, [&](const auto& file) { return touched.contains(file); })) continue;
    const auto base_site = base_by_op.find({kernel.body.file, kernel.op});
    if (base_site == base_by_op.end()) continue;
    auto reasons = kernel_change_reasons(base, base_site->second, head, kernel.body);
    if (reasons.empty()) continue;
    reasons.insert(reasons.begin(),
                   fmt::format("library kernel {} runs {}", kernel.name(), kernel.body.qualified_name));
    report_modified(analysis, {KernelChange::modified, base_site->second, kernel.body, std::move(reasons)});
  }
}

}  // namespace kforecast::kernel_changes
