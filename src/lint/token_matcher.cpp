// SPDX-License-Identifier: Apache-2.0
// The data-driven matchers: token patterns, compiler facts and launch facts.

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>

#include "kernels/token_text.hpp"
#include "lint/double_literals.hpp"
#include "lint/matchers.hpp"

namespace kforecast::lint {
namespace {

using kernels::TokenKind;

// An opening '(' whose argument list holds a double: a double literal, or a cast to double. Float
// arguments pick CUDA's float overloads of the math functions (sqrt(x) with a float x compiles to
// sqrt.rn.f32), so a call with none of these is not known to be the double function.
bool double_arguments(const SourceView& view, std::span<const Token> tokens, std::size_t open) {
  if (!tokens[open].is_punct("(")) return false;
  int depth = 0;
  for (std::size_t k = open; k < tokens.size(); ++k) {
    if (tokens[k].is_punct("(")) ++depth;
    if (tokens[k].is_punct(")") && --depth == 0) return false;
    if (tokens[k].is_identifier("double")) return true;
    if (is_double_literal(tokens[k]) && !converted_at_compile_time(view, tokens, k)) return true;
  }
  return false;
}

// The names a function's `template <...>` header declares (with the keywords and types there,
// which no run-time value is named by either); empty for a function that is not a template.
std::vector<std::string_view> template_header_names(std::span<const Token> tokens) {
  std::vector<std::string_view> names;
  if (tokens.size() < 2 || !tokens[0].is_identifier("template") || !tokens[1].is_punct("<")) return names;
  int depth = 0;
  for (std::size_t k = 1; k < tokens.size(); ++k) {
    if (tokens[k].is_punct("<")) ++depth;
    if (tokens[k].is_punct(">")) --depth;
    if (tokens[k].is_punct(">>")) depth -= 2;
    if (depth <= 0) break;
    if (tokens[k].is_identifier()) names.push_back(tokens[k].text());
  }
  return names;
}

// An opening '(' whose arguments read something at run time: a name that is not one of the
// function's template parameters, a macro with a number, true, false, nullptr, sizeof or
// alignof. assert(N == 64) on a template N is folded away and assert(false) marks a path that
// must not run (under #if __CUDA_ARCH__ < 750): neither is a check every thread pays for.
bool runtime_arguments(const SourceView& view, std::span<const Token> tokens, std::size_t open) {
  if (!tokens[open].is_punct("(")) return false;
  const auto constants = template_header_names(tokens);
  int depth = 0;
  for (std::size_t k = open; k < tokens.size(); ++k) {
    if (tokens[k].is_punct("(")) ++depth;
    if (tokens[k].is_punct(")") && --depth == 0) return false;
    if (!tokens[k].is_identifier()) continue;
    const std::string_view name = tokens[k].text();
    if ((name == "sizeof" || name == "alignof") && k + 1 < tokens.size() && tokens[k + 1].is_punct("(")) {
      // sizeof(float): its operand is read at compile time, so it is skipped whole.
      int inner = 0;
      for (++k; k < tokens.size(); ++k) {
        if (tokens[k].is_punct("(")) ++inner;
        if (tokens[k].is_punct(")") && --inner == 0) break;
      }
      continue;
    }
    constexpr std::array<std::string_view, 5> words{"true", "false", "nullptr", "sizeof", "alignof"};
    if (std::ranges::find(words, name) != words.end() || std::ranges::find(constants, name) != constants.end() ||
        view.macro_number(name))
      continue;
    return true;
  }
  return false;
}

bool element_matches(std::string_view element, const SourceView& view, std::span<const Token> tokens, std::size_t at,
                     const FunctionUnderLint* unit) {
  const Token& token = tokens[at];
  if (element == "@any") return true;
  if (element == "@double-arguments") return double_arguments(view, tokens, at);
  if (element == "@runtime-arguments") return runtime_arguments(view, tokens, at);
  if (element == "@double-literal") return is_double_literal(token);
  if (element == "@double-operand") return is_double_literal(token) && !folded_to_float(view, tokens, at, unit);
  if (element == "@number") return token.kind == TokenKind::number;
  if (element == "@identifier") return token.kind == TokenKind::identifier;
  if (element == "@string") return token.kind == TokenKind::string_literal;
  if (token.kind == TokenKind::string_literal || token.kind == TokenKind::char_literal) return false;
  while (!element.empty()) {
    const std::size_t bar = element.find('|');
    if (element.substr(0, bar) == token.text()) return true;
    if (bar == std::string_view::npos) break;
    element.remove_prefix(bar + 1);
  }
  return false;
}

bool uses_any(std::span<const Token> tokens, const std::vector<std::string>& words) {
  return std::ranges::any_of(tokens, [&](const Token& token) {
    return token.is_identifier() && std::ranges::find(words, token.text()) != words.end();
  });
}

// Whether the block around token `at`, or the block around that, names one of `words`.
bool block_names(std::span<const Token> tokens, std::size_t at, const std::vector<std::string>& words) {
  std::size_t open = at;
  for (int level = 0; level < 2; ++level) {
    int depth = 0;
    while (open > 0) {
      --open;
      if (tokens[open].is_punct("}")) ++depth;
      if (tokens[open].is_punct("{") && depth-- == 0) break;
    }
    if (!tokens[open].is_punct("{")) return false;
    const std::size_t close = std::min(tokens.size(), kernels::matching_close(tokens, open));
    for (std::size_t k = open; k < close; ++k)
      if (tokens[k].is_identifier() && std::ranges::find(words, tokens[k].text()) != words.end()) return true;
  }
  return false;
}

std::int64_t fact_value(const CompilerFacts& facts, std::string_view name) {
  if (name == "registers") return facts.registers;
  if (name == "spill_bytes") return facts.spill_bytes;
  if (name == "stack_frame_bytes") return facts.stack_frame_bytes;
  if (name == "shared_bytes") return facts.shared_bytes;
  return facts.local_bytes;
}

// The first argument of __launch_bounds__ (a comma inside min(a, b) leaves it unevaluated).
std::optional<std::int64_t> first_launch_bound(const SourceView& view, const kernels::Function& function) {
  const std::string_view bounds = function.launch_bounds;
  if (bounds.empty()) return std::nullopt;
  return view.constant_value(bounds.substr(0, bounds.find(',')));
}

}  // namespace

void match_tokens(const Rule& rule, const SourceView& view, std::span<const Token> tokens, std::span<const Token> uses,
                  std::vector<Finding>& out, const FunctionUnderLint* unit) {
  const Matcher& match = rule.match;
  if (!match.only_if_uses.empty() && !uses_any(uses, match.only_if_uses)) return;
  if (!match.unless_uses.empty() && uses_any(uses, match.unless_uses)) return;
  const std::size_t length = match.pattern.size();
  for (std::size_t i = 0; i + length <= tokens.size(); ++i) {
    bool all = true;
    for (std::size_t k = 0; k < length && all; ++k) all = element_matches(match.pattern[k], view, tokens, i + k, unit);
    if (!all) continue;
    if (i > 0 && std::ranges::find(match.not_after, tokens[i - 1].text()) != match.not_after.end()) continue;
    if (!match.unless_in_block.empty() && block_names(tokens, i, match.unless_in_block)) continue;
    Finding finding{view.offset(tokens[i]), std::string(tokens[i].text())};
    if (is_double_literal(tokens[i])) finding.fix = std::string(tokens[i].text()) + "f";
    out.push_back(std::move(finding));
  }
}

void match_compiler_fact(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  if (unit.facts == nullptr || !unit.facts->compiler) return;
  const std::int64_t value = fact_value(*unit.facts->compiler, rule.match.fact);
  if (static_cast<double>(value) <= rule.match.above) return;
  out.push_back({unit.function.signature.begin,
                 fmt::format("{} {} ({})", value, rule.match.fact == "registers" ? "registers" : "bytes",
                             unit.facts->compiler->arch),
                 true});
}

void match_launch_fact(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  if (unit.facts == nullptr || !unit.facts->launch || !unit.facts->launch->block_threads) return;
  const LaunchFacts& launch = *unit.facts->launch;
  const std::int64_t threads = *launch.block_threads;
  if (rule.match.fact == "launch_bounds") {
    const auto bound = first_launch_bound(unit.view, unit.function);
    if (bound && threads > *bound)
      out.push_back(
          {unit.function.signature.begin,
           fmt::format("{} threads per block ({}) against __launch_bounds__({})", threads, launch.origin, *bound),
           true});
    return;
  }
  if (!launch.occupancy) return;  // the caller could not compute it (no GPU table entry, no spec)
  const double below = rule.match.below.value_or(rule.match.above);
  if (*launch.occupancy * 100 >= below) return;
  Finding finding{unit.function.signature.begin,
                  fmt::format("{:.0f}% for blocks of {} threads{}", *launch.occupancy * 100, threads,
                              launch.dynamic_shared_bytes.value_or(0) > 0
                                  ? fmt::format(" and {} B of dynamic shared memory", *launch.dynamic_shared_bytes)
                                  : std::string()),
                  true};
  finding.fix = fmt::format("{}; spec {}", launch.occupancy_basis, launch.origin);
  out.push_back(std::move(finding));
}

}  // namespace kforecast::lint
