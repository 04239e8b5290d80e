// SPDX-License-Identifier: Apache-2.0
// Integer division and modulo by a run-time value inside a loop: a software sequence of about
// twenty instructions per evaluation. Not where the compiler does it once: an expression whose
// operands the loop never changes (hoisted), the same expression again in the same iteration
// (reused), a / and % of the same operands (one division gives both: reported once, as a pair),
// a divisor known at compile time (a constant, a template parameter, CuTe's size<I>(t)), or the
// tail loop after an unrolled one, which runs fewer times than the unroll factor (at most 3).

#include <algorithm>
#include <array>
#include <cctype>

#include <fmt/format.h>

#include "kernels/token_text.hpp"
#include "lint/matchers.hpp"

namespace kforecast::lint {
namespace {

constexpr std::array<std::string_view, 13> integer_words{"int",       "unsigned", "long",    "short",    "size_t",
                                                         "int32_t",   "uint32_t", "int64_t", "uint64_t", "uint",
                                                         "ptrdiff_t", "int16_t",  "uint16_t"};

bool integer_type(std::string_view type) {
  if (type.find('*') != std::string_view::npos || type.find('&') != std::string_view::npos) return false;
  return std::ranges::any_of(integer_words, [&](std::string_view word) { return has_word(type, word); });
}

bool screaming(std::string_view name) {
  return std::ranges::none_of(name, [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; });
}

class Division {
 public:
  explicit Division(const FunctionUnderLint& unit)
      : m_unit(unit), m_tokens(unit.body), m_variables(unit.analysis.variables()) {}

  std::string type_of(std::size_t id) const {
    const Variable& v = m_variables[id];
    if (!v.free()) return m_unit.view.text_of(m_tokens, v.type_begin, v.type_end);
    for (const auto& parameter : m_unit.function.parameters)
      if (parameter.name == v.name) return parameter.type;
    return {};
  }

  // A name whose value the compiler knows: a macro or constant, a template parameter, a
  // constexpr variable, or a variable only ever assigned such values (int nk = size<2>(t)).
  bool compile_time_name(std::size_t at, int depth) const {
    const Token& t = m_tokens[at];
    if (!t.is_identifier()) return true;
    if (at > 0 && m_tokens[at - 1].is_punct("::")) return true;  // Traits::N
    const std::size_t id = m_variables.at(at);
    // A parameter or a variable of the body is what it is, whatever its name's case (int T).
    const bool parameter = id != Variables::none && m_variables[id].free() && !type_of(id).empty();
    if (parameter) return false;
    if (id == Variables::none || m_variables[id].free())
      return m_unit.view.macro_number(t.text()) || screaming(t.text()) ||
             has_word(m_unit.function.template_parameters, t.text());
    if (depth > 4) return false;
    if (has_word(type_of(id), "constexpr")) return true;
    if (!m_variables.updates(id).empty() || m_variables.assigned(id).empty()) return false;
    return std::ranges::all_of(m_variables.assigned(id),
                               [&](const TokenRange& r) { return compile_time(r.begin, r.end, depth + 1); });
  }

  bool compile_time(std::size_t begin, std::size_t end, int depth) const {
    for (std::size_t k = begin; k < end && k < m_tokens.size(); ++k) {
      const Token& t = m_tokens[k];
      if ((t.is_identifier("size") || t.is_identifier("rank") || t.is_identifier("sizeof")) && k + 1 < end &&
          (m_tokens[k + 1].is_punct("<") || m_tokens[k + 1].is_punct("("))) {
        std::size_t open = k + 1;
        if (m_tokens[open].is_punct("<")) open = kernels::matching_angle(m_tokens, open) + 1;
        if (open >= end || !m_tokens[open].is_punct("(")) return false;
        k = closing(m_tokens, open);
        continue;
      }
      if (t.is_identifier() && k + 1 < end && m_tokens[k + 1].is_punct("::")) continue;
      if (t.is_identifier() && !compile_time_name(k, depth)) return false;
      if (t.is_punct("[") || t.is_punct(".") || t.is_punct("->")) return false;
    }
    return true;
  }

  // The first token of the primary expression that ends at `end` (exclusive).
  std::size_t primary_begin(std::size_t end) const {
    std::size_t k = end;
    while (k > 0) {
      const Token& t = m_tokens[k - 1];
      if (t.is_punct(")") || t.is_punct("]")) {
        std::size_t open = k - 1;
        for (int depth = 0; open > 0; --open) {
          if (m_tokens[open].is_punct(")") || m_tokens[open].is_punct("]")) ++depth;
          if ((m_tokens[open].is_punct("(") || m_tokens[open].is_punct("[")) && --depth == 0) break;
        }
        k = open;
        if (k > 0 &&
            (m_tokens[k - 1].is_identifier() || m_tokens[k - 1].is_punct("]") || m_tokens[k - 1].is_punct(")")) &&
            !kernels::is_keyword(m_tokens[k - 1].text()))
          continue;  // a call or a subscript: its callee or array
        return k;
      }
      if (t.is_identifier() || t.kind == kernels::TokenKind::number) {
        k -= 1;
        if (k >= 2 &&
            (m_tokens[k - 1].is_punct(".") || m_tokens[k - 1].is_punct("->") || m_tokens[k - 1].is_punct("::"))) {
          k -= 1;
          continue;
        }
        return k;
      }
      return k;
    }
    return k;
  }

  // The end of the divisor starting at `at`: a name, blockDim.x, or a parenthesised expression.
  std::size_t divisor_end(std::size_t at) const {
    if (at >= m_tokens.size()) return at;
    if (m_tokens[at].is_punct("(")) return closing(m_tokens, at) + 1;
    std::size_t k = at;
    if (!m_tokens[k].is_identifier()) return at;
    ++k;
    while (k + 1 < m_tokens.size() && m_tokens[k].is_punct(".") && m_tokens[k + 1].is_identifier()) k += 2;
    return k;
  }

  // Whether [begin, end) reads anything the loop changes: a variable it assigns, or memory
  // (a subscript or a call may read what an iteration wrote).
  bool varies_in(const ControlRegion& loop, std::size_t begin, std::size_t end) const {
    for (std::size_t k = begin; k < end; ++k) {
      if (m_tokens[k].is_punct("[") || m_tokens[k].is_punct("->")) return true;
      if (m_tokens[k].is_punct("(") && k > begin && m_tokens[k - 1].is_identifier()) return true;
      const std::size_t id = m_variables.at(k);
      if (id != Variables::none && m_variables.changed_in(id, loop.header_begin, loop.end)) return true;
    }
    return false;
  }

  bool changed_between(std::size_t begin, std::size_t end, std::size_t from, std::size_t to) const {
    for (std::size_t k = begin; k < end; ++k) {
      const std::size_t id = m_variables.at(k);
      if (id != Variables::none && m_variables.changed_in(id, from, to)) return true;
    }
    return false;
  }

  // A tail loop: `for (i = start; i < end; ++i)` whose start rounds `end` down to a multiple of
  // a constant factor of at most 4 (start = end / 4 * 4, or derived from end / 4): it runs fewer
  // iterations than that factor.
  bool tail_loop(const ControlRegion& loop) const {
    if (loop.header_begin < 2 || !m_tokens[loop.header_begin - 2].is_identifier("for")) return false;
    std::size_t first = loop.header_begin;
    while (first < loop.header_end && !m_tokens[first].is_punct(";")) ++first;
    std::size_t second = first + 1;
    while (second < loop.header_end && !m_tokens[second].is_punct(";")) ++second;
    if (second >= loop.header_end) return false;
    // The bound: the name the condition compares the counter with (i < N).
    std::string_view bound;
    for (std::size_t k = first + 1; k + 1 < second; ++k)
      if ((m_tokens[k].is_punct("<") || m_tokens[k].is_punct("<=")) && m_tokens[k + 1].is_identifier())
        bound = m_tokens[k + 1].text();
    if (bound.empty()) return false;
    // The start's expressions: the init clause and what the names it reads were assigned.
    std::vector<TokenRange> starts{{loop.header_begin, first, false}};
    for (std::size_t k = loop.header_begin; k < first; ++k)
      if (const std::size_t id = m_variables.at(k); id != Variables::none && !m_variables.changed_in(id, k, k + 1))
        for (const auto& r : m_variables.assigned(id)) starts.push_back(r);
    for (const auto& [begin, end, compound] : starts)
      for (std::size_t k = begin; k + 2 < end; ++k) {
        if (!m_tokens[k].is_identifier(bound) || !m_tokens[k + 1].is_punct("/")) continue;
        const Token& factor = m_tokens[k + 2];
        std::optional<std::int64_t> value = integer_literal(factor);
        if (!value && factor.is_identifier()) value = m_unit.view.macro_number(factor.text());
        if (value && *value >= 2 && *value <= 4) return true;
      }
    return false;
  }

  const FunctionUnderLint& m_unit;
  std::span<const Token> m_tokens;
  const Variables& m_variables;
};

struct Reported {
  std::size_t op, left_begin, right_end;  // token indices
  const ControlRegion* loop;
  std::string left, right;  // operand texts
  std::size_t finding;      // index into the output
};

}  // namespace

void match_division_in_loop(const Rule& rule, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  const auto tokens = unit.body;
  const Division division(unit);
  const auto& variables = unit.analysis.variables();
  const std::vector<std::string> operators =
      rule.match.names.empty() ? std::vector<std::string>{"/", "%", "/=", "%="} : rule.match.names;
  std::vector<Reported> reported;
  std::vector<std::pair<std::size_t, std::string>> seen;  // earlier divisions by text, for reuse
  for (std::size_t i = 1; i + 1 < tokens.size(); ++i) {
    if (tokens[i].kind != kernels::TokenKind::punctuation ||
        std::ranges::find(operators, tokens[i].text()) == operators.end())
      continue;
    const ControlRegion* loop = unit.analysis.innermost_loop(i);
    if (loop == nullptr || division.tail_loop(*loop)) continue;
    const std::size_t right_end = division.divisor_end(i + 1);
    if (right_end == i + 1) continue;
    // The divisor: a run-time integer (a variable or parameter of integer type, blockDim, gridDim).
    const Token& right = tokens[i + 1];
    const bool builtin = (right.is_identifier("blockDim") || right.is_identifier("gridDim")) && right_end > i + 2;
    const std::size_t right_id = variables.at(i + 1);
    const bool runtime_right =
        builtin || (right_end == i + 2 && right_id != Variables::none && integer_type(division.type_of(right_id)) &&
                    !division.compile_time_name(i + 1, 0));
    if (!runtime_right) continue;
    // The dividend: an integer (for /; % is integer anyway).
    const bool compound = tokens[i].text().size() == 2;
    const std::size_t left_begin = compound ? i - 1 : division.primary_begin(i);
    if (left_begin >= i) continue;
    const Token& left = tokens[i - 1];
    const std::size_t left_id = variables.at(i - 1);
    // A parenthesised group (not a call) of integer variables and no floating-point literal.
    const auto integer_group = [&] {
      if (!left.is_punct(")") || (left_begin > 0 && tokens[left_begin - 1].is_identifier()) ||
          !tokens[left_begin].is_punct("("))
        return false;
      bool integer = false;
      for (std::size_t k = left_begin + 1; k + 1 < i; ++k) {
        if (tokens[k].kind == kernels::TokenKind::number && !integer_literal(tokens[k])) return false;
        const std::size_t id = variables.at(k);
        if (id != Variables::none && integer_type(division.type_of(id))) integer = true;
      }
      return integer;
    };
    const bool integer_left = integer_literal(left).has_value() || integer_group() ||
                              (left_id != Variables::none && integer_type(division.type_of(left_id))) ||
                              (left.is_identifier() && i >= 2 && tokens[i - 2].is_punct("."));  // threadIdx.x
    if (!tokens[i].text().starts_with('%') && !integer_left) continue;
    // Hoisted: nothing in it changes in the loop, and every iteration evaluates it.
    const bool branch_inside = std::ranges::any_of(unit.analysis.regions(), [&](const ControlRegion& r) {
      return r.kind == ControlRegion::Kind::branch && r.begin > loop->begin && r.begin <= i && i < r.end;
    });
    if (!compound && !branch_inside && !division.varies_in(*loop, left_begin, i) &&
        !division.varies_in(*loop, i + 1, right_end))
      continue;
    const std::string left_text = unit.view.text_of(tokens, left_begin, i);
    const std::string right_text = unit.view.text_of(tokens, i + 1, right_end);
    const std::string op(tokens[i].text().substr(0, 1));
    // Reused: the same division earlier in this iteration, its operands unchanged since.
    const std::string key = left_text + op + right_text;
    const bool reused = std::ranges::any_of(seen, [&](const auto& earlier) {
      return earlier.second == key && earlier.first >= loop->begin && !compound &&
             !division.changed_between(left_begin, right_end, earlier.first, i);
    });
    seen.emplace_back(i, key);
    if (reused) continue;
    // A / and a % of the same operands in the same iteration: one division.
    auto pair = std::ranges::find_if(reported, [&](const Reported& r) {
      return r.loop == loop && r.left == left_text && r.right == right_text && !compound &&
             tokens[r.op].text() != tokens[i].text() && !division.changed_between(left_begin, right_end, r.op, i);
    });
    if (pair != reported.end()) {
      Finding& first = out[pair->finding];
      first.detail = fmt::format("{} with its {} (one division)", first.detail, op);
      continue;
    }
    reported.push_back({i, left_begin, right_end, loop, left_text, right_text, out.size()});
    out.push_back(
        {unit.view.offset(tokens[i]), fmt::format("'{} {} {}'", clipped(left_text, 30), op, clipped(right_text, 20))});
  }
}

}  // namespace kforecast::lint
