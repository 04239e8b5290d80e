// SPDX-License-Identifier: Apache-2.0
#include "lint/condition_value.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <set>
#include <string_view>

#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"
#include "lint/source_view.hpp"

namespace kforecast::lint {
namespace {

using kernels::Token;
using kernels::TokenKind;

// A condition's value; nullopt where it depends on something this file does not say.
using Value = std::optional<std::int64_t>;

// The lowest __CUDA_ARCH__ lint assumes: the _sync warp intrinsics and independent thread
// scheduling start with Volta, and code for older GPUs is what a CUDA build of today skips.
constexpr std::int64_t lowest_arch = 700;

// Macro bodies that name macros, nested deeper than this, are not a real file's conditions.
constexpr int max_depth = 16;

// Names whose '_'-separated words include one of these are HIP's or a project's own switch for
// AMD builds (USE_ROCM, __HIP_PLATFORM_AMD__, BNB_HIP): never defined in a CUDA build.
bool hip_name(std::string_view name) {
  if (name.empty() || std::ranges::any_of(name, [](char c) { return std::islower(static_cast<unsigned char>(c)); }))
    return false;
  std::size_t at = 0;
  while (at < name.size()) {
    const std::size_t end = std::min(name.find('_', at), name.size());
    const std::string_view word = name.substr(at, end - at);
    for (std::string_view hip : {"HIP", "HIPCC", "HIPRTC", "ROCM", "HCC", "AMD"})
      if (word == hip) return true;
    at = end + 1;
  }
  return false;
}

// A quantity a CUDA build knows only from a floor up: the device pass's __CUDA_ARCH__ (sm_70
// and later) and the toolkit's version (11.0 and later, the oldest toolkit a current project
// builds with; CUDA 9 brought the _sync intrinsics).
struct Floor {
  std::string_view name;
  std::int64_t lowest;
};
constexpr std::array<Floor, 4> floors{
    {{"__CUDA_ARCH__", lowest_arch}, {"CUDA_VERSION", 11000}, {"CUDART_VERSION", 11000}, {"__CUDACC_VER_MAJOR__", 11}}};

class Evaluator {
 public:
  // `floored` names the quantity that has the value `floor_value` in this evaluation.
  Evaluator(std::span<const Token> tokens, const Macros& macros, std::optional<std::int64_t> floor_value,
            std::string_view floored, int depth)
      : m_tokens(tokens), m_macros(macros), m_floor_value(floor_value), m_floored(floored), m_depth(depth) {}

  Value whole() {
    const Value value = conditional();
    return m_at == m_tokens.size() ? value : std::nullopt;
  }

 private:
  bool accept(std::string_view punct) {
    if (m_at < m_tokens.size() && m_tokens[m_at].is_punct(punct)) {
      ++m_at;
      return true;
    }
    return false;
  }

  Value conditional() {
    const Value test = logical_or();
    if (!accept("?")) return test;
    const Value yes = conditional();
    if (!accept(":")) return std::nullopt;
    const Value no = conditional();
    if (!test) return yes && no && *yes == *no ? yes : std::nullopt;
    return *test != 0 ? yes : no;
  }

  // Short-circuit with unknown operands: true || unknown is true, false && unknown is false.
  Value logical_or() {
    Value left = logical_and();
    while (accept("||")) {
      const Value right = logical_and();
      if ((left && *left != 0) || (right && *right != 0))
        left = 1;
      else
        left = left && right ? Value(0) : std::nullopt;
    }
    return left;
  }

  Value logical_and() {
    Value left = binary(0);
    while (accept("&&")) {
      const Value right = binary(0);
      if ((left && *left == 0) || (right && *right == 0))
        left = 0;
      else
        left = left && right ? Value(1) : std::nullopt;
    }
    return left;
  }

  // Binary operators by level, loosest first; each level is left-associative.
  Value binary(int level) {
    static constexpr std::array<std::array<std::string_view, 4>, 7> levels{
        {{"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}}};
    if (level == static_cast<int>(levels.size())) return multiplicative();
    Value left = binary(level + 1);
    for (;;) {
      std::string_view op;
      for (std::string_view candidate : levels[static_cast<std::size_t>(level)])
        if (!candidate.empty() && accept(candidate)) op = candidate;
      if (op.empty()) return left;
      const Value right = binary(level + 1);
      left = left && right ? apply(op, *left, *right) : std::nullopt;
    }
  }

  Value multiplicative() {
    Value left = unary();
    for (;;) {
      std::string_view op;
      for (std::string_view candidate : {"*", "/", "%"})
        if (accept(candidate)) op = candidate;
      if (op.empty()) return left;
      const Value right = unary();
      left = left && right ? apply(op, *left, *right) : std::nullopt;
    }
  }

  static Value apply(std::string_view op, std::int64_t a, std::int64_t b) {
    if (op == "|") return a | b;
    if (op == "^") return a ^ b;
    if (op == "&") return a & b;
    if (op == "==") return a == b;
    if (op == "!=") return a != b;
    if (op == "<") return a < b;
    if (op == ">") return a > b;
    if (op == "<=") return a <= b;
    if (op == ">=") return a >= b;
    if (op == "<<") return b >= 0 && b < 63 ? Value(a << b) : std::nullopt;
    if (op == ">>") return b >= 0 && b < 63 ? Value(a >> b) : std::nullopt;
    if (op == "+") return a + b;
    if (op == "-") return a - b;
    if (op == "*") return a * b;
    if (b == 0) return std::nullopt;
    return op == "/" ? a / b : a % b;
  }

  Value unary() {
    if (m_depth > max_depth) return std::nullopt;
    if (accept("!")) {
      const Value v = unary();
      return v ? Value(*v == 0) : std::nullopt;
    }
    if (accept("-")) {
      const Value v = unary();
      return v ? Value(-*v) : std::nullopt;
    }
    if (accept("~")) {
      const Value v = unary();
      return v ? Value(~*v) : std::nullopt;
    }
    if (accept("+")) return unary();
    return primary();
  }

  Value primary() {
    if (m_at >= m_tokens.size()) return std::nullopt;
    if (accept("(")) {
      ++m_depth;
      const Value v = conditional();
      --m_depth;
      return accept(")") ? v : std::nullopt;
    }
    const Token& token = m_tokens[m_at++];
    if (token.kind == TokenKind::number) return integer_literal(token);
    if (!token.is_identifier()) return std::nullopt;
    const std::string_view name = token.text();
    if (name == "defined") return defined();
    if (name == "true") return 1;
    if (name == "false") return 0;
    if (m_at < m_tokens.size() && m_tokens[m_at].is_punct("(")) {  // a function-like macro or __has_include
      m_at = std::min(m_tokens.size(), kernels::matching_close(m_tokens, m_at) + 1);
      return std::nullopt;
    }
    for (const auto& floor : floors)
      if (name == floor.name) return name == m_floored ? m_floor_value : std::nullopt;
    if (hip_name(name)) return 0;
    return macro_value(name);
  }

  Value defined() {
    const bool parenthesised = accept("(");
    if (m_at >= m_tokens.size() || !m_tokens[m_at].is_identifier()) return std::nullopt;
    const std::string_view name = m_tokens[m_at++].text();
    if (parenthesised && !accept(")")) return std::nullopt;
    if (hip_name(name)) return 0;
    if (name == "__CUDACC__") return 1;
    if (auto it = m_macros.find(name); it != m_macros.end() && it->second.known) return 1;
    return std::nullopt;
  }

  Value macro_value(std::string_view name) const {
    auto it = m_macros.find(name);
    if (it == m_macros.end() || !it->second.known || it->second.function_like) return std::nullopt;
    const auto tokens = kernels::lex(it->second.body);
    if (tokens.empty()) return std::nullopt;
    return Evaluator(tokens, m_macros, m_floor_value, m_floored, m_depth + 1).whole();
  }

  std::span<const Token> m_tokens;
  const Macros& m_macros;
  std::optional<std::int64_t> m_floor_value;
  std::string_view m_floored;
  int m_depth;
  std::size_t m_at = 0;
};

// The condition's value over every value of the floored quantity it names, from its floor up:
// known only where it is the same for all of them. The values tried are the boundaries the
// condition itself names. A condition naming two such quantities is not settled.
}  // namespace

std::optional<std::int64_t> condition_value(std::span<const Token> condition, const Macros& macros) {
  const Floor* named = nullptr;
  for (const Floor& floor : floors)
    if (std::ranges::any_of(condition, [&](const Token& t) { return t.is_identifier(floor.name); })) {
      if (named != nullptr) return std::nullopt;
      named = &floor;
    }
  if (named == nullptr) return Evaluator(condition, macros, std::nullopt, std::string_view(), 0).whole();
  constexpr std::int64_t top = std::int64_t{1} << 40;
  std::set<std::int64_t> values{named->lowest, top};
  for (const Token& t : condition)
    if (auto value = integer_literal(t); value && *value >= named->lowest && *value < top)
      values.insert({*value - 1, *value, *value + 1});
  Value common;
  for (auto it = values.lower_bound(named->lowest); it != values.end(); ++it) {
    const Value value = Evaluator(condition, macros, *it, named->name, 0).whole();
    if (!value) return std::nullopt;
    if (common && (*common != 0) != (*value != 0)) return std::nullopt;
    common = value;
  }
  return common;
}

}  // namespace kforecast::lint
