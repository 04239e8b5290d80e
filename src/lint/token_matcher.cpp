// SPDX-License-Identifier: Apache-2.0
// The data-driven matchers: token patterns, compiler facts and launch facts.

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "lint/matchers.hpp"

namespace kforecast::lint {
namespace {

using kernels::TokenKind;

// A decimal floating literal without an f (float) or h suffix: a double.
bool is_double_literal(const Token& token) {
  if (token.kind != TokenKind::number) return false;
  const std::string_view text = token.text;
  if (text.size() > 1 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) return false;
  const bool floating = text.find('.') != std::string_view::npos || text.find_first_of("eE") != std::string_view::npos;
  return floating && text.back() != 'f' && text.back() != 'F';
}

bool element_matches(std::string_view element, const Token& token) {
  if (element == "@any") return true;
  if (element == "@double-literal") return is_double_literal(token);
  if (element == "@number") return token.kind == TokenKind::number;
  if (element == "@identifier") return token.kind == TokenKind::identifier;
  if (element == "@string") return token.kind == TokenKind::string_literal;
  if (token.kind == TokenKind::string_literal || token.kind == TokenKind::char_literal) return false;
  while (!element.empty()) {
    const std::size_t bar = element.find('|');
    if (element.substr(0, bar) == token.text) return true;
    if (bar == std::string_view::npos) break;
    element.remove_prefix(bar + 1);
  }
  return false;
}

bool uses_any(std::span<const Token> tokens, const std::vector<std::string>& words) {
  return std::ranges::any_of(tokens, [&](const Token& token) {
    return token.is_identifier() && std::ranges::find(words, token.text) != words.end();
  });
}

std::int64_t fact_value(const CompilerFacts& facts, std::string_view name) {
  if (name == "registers") return facts.registers;
  if (name == "spill_bytes") return facts.spill_bytes;
  if (name == "stack_frame_bytes") return facts.stack_frame_bytes;
  if (name == "shared_bytes") return facts.shared_bytes;
  return facts.local_bytes;
}

// Resident warps per SM over the maximum, for a block of `threads` using `registers` per thread
// and `shared` bytes per block, on a Hopper-class SM (64K registers allocated per warp in units
// of 256, 64 warps, 32 blocks, 228 KiB shared memory of which 1 KiB per block is reserved).
double occupancy(std::int64_t threads, int registers, std::int64_t shared) {
  if (threads <= 0) return 0;
  const std::int64_t warps = (threads + 31) / 32;
  std::int64_t blocks = std::min<std::int64_t>(32, 64 / warps);
  if (registers > 0) {
    const std::int64_t per_warp = (registers * 32 + 255) / 256 * 256;
    blocks = std::min(blocks, 65536 / (per_warp * warps));
  }
  if (shared > 0) blocks = std::min(blocks, (228 * 1024) / (shared + 1024));
  return static_cast<double>(std::max<std::int64_t>(blocks, 0) * warps) / 64.0;
}

std::optional<std::int64_t> first_launch_bound(const kernels::Function& function) {
  std::string_view bounds = function.launch_bounds;
  const std::size_t comma = bounds.find(',');
  bounds = bounds.substr(0, comma);
  while (!bounds.empty() && bounds.front() == ' ') bounds.remove_prefix(1);
  while (!bounds.empty() && bounds.back() == ' ') bounds.remove_suffix(1);
  return integer_literal(Token{bounds, 0, TokenKind::number});
}

}  // namespace

void match_tokens(const Rule& rule, const SourceView& view, std::span<const Token> tokens, std::span<const Token> uses,
                  std::vector<Finding>& out) {
  const Matcher& match = rule.match;
  if (!match.only_if_uses.empty() && !uses_any(uses, match.only_if_uses)) return;
  if (!match.unless_uses.empty() && uses_any(uses, match.unless_uses)) return;
  const std::size_t length = match.pattern.size();
  for (std::size_t i = 0; i + length <= tokens.size(); ++i) {
    bool all = true;
    for (std::size_t k = 0; k < length && all; ++k) all = element_matches(match.pattern[k], tokens[i + k]);
    if (!all) continue;
    if (i > 0 && std::ranges::find(match.not_after, tokens[i - 1].text) != match.not_after.end()) continue;
    out.push_back({view.offset(tokens[i]), std::string(tokens[i].text)});
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
    const auto bound = first_launch_bound(unit.function);
    if (bound && threads > *bound)
      out.push_back(
          {unit.function.signature.begin,
           fmt::format("{} threads per block ({}) against __launch_bounds__({})", threads, launch.origin, *bound),
           true});
    return;
  }
  if (!unit.facts->compiler) return;  // occupancy needs the registers
  const auto& compiler = *unit.facts->compiler;
  const double achieved =
      occupancy(threads, compiler.registers, compiler.shared_bytes + launch.dynamic_shared_bytes.value_or(0));
  if (achieved * 100 >= rule.match.above) return;
  out.push_back({unit.function.signature.begin,
                 fmt::format("{:.0f}% with {} threads per block and {} registers ({})", achieved * 100, threads,
                             compiler.registers, launch.origin),
                 true});
}

}  // namespace kforecast::lint
