// SPDX-License-Identifier: Apache-2.0
#include "lint/linter.hpp"

#include <algorithm>
#include <memory>

#include "lint/matchers.hpp"
#include "lint/source_view.hpp"
#include "lint/suppression.hpp"

namespace kforecast::lint {
namespace {

bool in_scope(const kernels::Function& function, Scope scope) {
  if (!function.has_body || function.from_macro) return false;
  return function.kind == kernels::FunctionKind::global || scope == Scope::device;
}

void run_function_rule(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  const bool kernel = unit.function.kind == kernels::FunctionKind::global;
  switch (rule.match.kind) {
    case MatcherKind::tokens:
      return match_tokens(rule, unit.view, unit.whole, unit.whole, out, &unit);
    case MatcherKind::barrier_in_divergent_branch:
      return match_barrier_in_divergent_branch(rule, unit, out);
    case MatcherKind::shared_array_stride:
      return match_shared_array_stride(rule, unit, out);
    case MatcherKind::strided_thread_index:
      return match_strided_thread_index(rule, unit, out);
    case MatcherKind::atomic_uniform_address:
      return match_atomic_uniform_address(rule, unit, out);
    case MatcherKind::division_in_loop:
      return match_division_in_loop(rule, unit, out);
    case MatcherKind::local_array_dynamic_index:
      return match_local_array_dynamic_index(rule, unit, out);
    case MatcherKind::pointer_parameters_without_restrict:
      if (kernel) match_pointer_parameters_without_restrict(rule, unit, out);
      return;
    case MatcherKind::volatile_shared_reduction:
      return match_volatile_shared_reduction(rule, unit, out);
    case MatcherKind::block_size:
      if (kernel) match_launch_bounds_block_size(rule, unit, out);
      return;
    case MatcherKind::compiler_fact:
      if (kernel) match_compiler_fact(rule, unit, out);
      return;
    case MatcherKind::launch_fact:
      if (kernel) match_launch_fact(rule, unit, out);
      return;
  }
}

// A function template of a .cu file that nothing in the file names (no call, no explicit
// instantiation) is never instantiated there: no code, so nothing to lint. A header's templates
// are instantiated by the files that include it, and stay.
bool uninstantiated_template(std::string_view path, const SourceView& view, const kernels::Function& function) {
  if (function.template_parameters.empty() || function.kind == kernels::FunctionKind::global ||
      !path.ends_with(".cu") || !function.instantiations.empty() || function.name.starts_with("operator"))
    return false;
  for (const auto& macro : view.scanned().macros)  // a macro of this file may call it
    if (macro.body.find(function.name) != std::string::npos) return false;
  for (const auto& token : view.code()) {
    const std::size_t at = view.offset(token);
    if (at >= function.whole.begin && at < function.whole.end) continue;
    if (token.is_identifier(function.name)) return false;
  }
  return true;
}

bool changed_within(const std::vector<std::uint32_t>& lines, std::uint32_t first, std::uint32_t last) {
  auto it = std::ranges::lower_bound(lines, first);
  return it != lines.end() && *it <= last;
}

}  // namespace

std::string normalised_line(std::string_view line) {
  std::string text;
  for (char c : line) {
    const bool space = c == ' ' || c == '\t' || c == '\r';
    if (space && (text.empty() || text.back() == ' ')) continue;
    text.push_back(space ? ' ' : c);
  }
  if (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

std::string render_placeholder(std::string_view message, std::string_view placeholder, std::string_view value) {
  std::string text(message);
  for (std::size_t at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size()))
    text.replace(at, placeholder.size(), value);
  return text;
}

std::string render_message(std::string_view message, std::string_view detail) {
  return render_placeholder(message, "{match}", detail);
}

std::vector<Diagnostic> lint_source(std::string_view path, std::string_view text, std::span<const Rule> rules,
                                    const LintOptions& options) {
  const SourceView view(text);
  struct Fired {
    const Rule* rule;
    Finding finding;
  };
  std::vector<Fired> fired;
  std::vector<Finding> found;
  const auto collect = [&](const Rule& rule, const kernels::Function* function) {
    for (auto& finding : found) {
      finding.function = function;
      fired.push_back({&rule, std::move(finding)});
    }
    found.clear();
  };

  for (const auto& rule : rules) {
    if (!rule.enabled || rule.match.scope != Scope::file) continue;
    if (rule.match.kind == MatcherKind::tokens) match_tokens(rule, view, view.code(), view.code(), found);
    if (rule.match.kind == MatcherKind::block_size) match_launch_block_size(rule, view, found);
    collect(rule, nullptr);
  }
  // Names the file's static_asserts pin (static_assert(COLS % 32 == 0)): loops bounded by them
  // run the same tiling in every thread (BodyAnalysis).
  std::vector<std::string_view> asserted;
  const auto code = view.code();
  for (std::size_t i = 0; i + 1 < code.size(); ++i) {
    if (!code[i].is_identifier("static_assert") || !code[i + 1].is_punct("(")) continue;
    const std::size_t close = closing(code, i + 1);
    for (std::size_t k = i + 2; k < close && k < code.size(); ++k)
      if (code[k].is_identifier() && !(k + 1 < code.size() && code[k + 1].is_punct("::")))
        asserted.push_back(code[k].text());
  }
  for (const auto& function : view.scanned().functions) {
    if (!function.has_body || function.from_macro || !view.live(function.body.begin)) continue;
    if (uninstantiated_template(path, view, function)) continue;
    if (options.changed_lines != nullptr &&
        !changed_within(*options.changed_lines, function.whole.first_line, function.whole.last_line))
      continue;
    const auto body = view.tokens_in(function.body);
    const BodyAnalysis analysis(body, asserted);
    const KernelFacts* facts = nullptr;
    if (options.facts != nullptr)
      if (auto it = options.facts->find(function.qualified_name); it != options.facts->end()) facts = &it->second;
    const FunctionUnderLint unit{view,
                                 function,
                                 view.tokens_in(function.signature),
                                 body,
                                 analysis,
                                 facts,
                                 view.tokens_in({function.signature.begin, function.body.end})};
    for (const auto& rule : rules) {
      if (!rule.enabled || rule.match.scope == Scope::file || !in_scope(function, rule.match.scope)) continue;
      run_function_rule(rule, unit, found);
      collect(rule, &function);
    }
  }

  std::vector<Diagnostic> diagnostics;
  for (const auto& [rule, finding] : fired) {
    const std::uint32_t line = view.line_of(finding.offset);
    if (options.changed_lines != nullptr) {
      const bool kept = finding.whole_function && finding.function != nullptr
                            ? changed_within(*options.changed_lines, finding.function->whole.first_line,
                                             finding.function->whole.last_line)
                            : std::ranges::binary_search(*options.changed_lines, line);
      if (!kept) continue;
    }
    if (suppressed_on_line(view.line_text(line), rule->id)) continue;
    const auto variant = rule->variants.find(finding.variant);
    const auto variant_note = rule->variant_notes.find(finding.variant);
    const std::string& message = variant == rule->variants.end() ? rule->message : variant->second;
    const std::string& note = variant_note == rule->variant_notes.end() ? rule->note : variant_note->second;
    std::vector<std::string> notes;
    if (!note.empty() && (note.find("{fix}") == std::string::npos || !finding.fix.empty()))
      notes.push_back(render_placeholder(render_message(note, finding.detail), "{fix}", finding.fix));
    diagnostics.push_back({std::string(path), line, view.column_of(finding.offset), rule, rule->severity,
                           render_message(message, finding.detail),
                           finding.function ? finding.function->qualified_name : std::string(), std::move(notes),
                           normalised_line(view.line_text(line))});
  }
  std::ranges::sort(diagnostics, [](const Diagnostic& a, const Diagnostic& b) {
    return std::tie(a.line, a.column, a.rule->id) < std::tie(b.line, b.column, b.rule->id);
  });
  auto duplicate = std::ranges::unique(diagnostics, [](const Diagnostic& a, const Diagnostic& b) {
    return a.line == b.line && a.column == b.column && a.rule == b.rule;
  });
  diagnostics.erase(duplicate.begin(), duplicate.end());
  return diagnostics;
}

}  // namespace kforecast::lint
