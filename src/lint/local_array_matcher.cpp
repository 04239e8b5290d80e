// SPDX-License-Identifier: Apache-2.0
// Per-thread arrays indexed by a value the compiler cannot resolve: such an array is placed in
// local memory instead of registers. Resolved indices are compile-time values, the counters of
// loops with a constant trip count (unrolled: every counter of the header, the second of
// `for (int i = 0, j = 0; ...)` too), variables computed only from those, and a double-buffer
// index toggled with ^= 1 over a dimension of 2 (nvcc selects between the two halves: 0 bytes
// of stack on the judged kernels). Arrays are variables by scope, so a shared array and a
// per-thread array of the same name in two functions or blocks are told apart; one declared
// __shared__ in another branch of an unsettled #if is left alone.

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "kernels/token_text.hpp"
#include "lint/matchers.hpp"

namespace kforecast::lint {
namespace {

bool screaming(std::string_view name) {
  return std::ranges::none_of(name, [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; });
}

class Indices {
 public:
  explicit Indices(const FunctionUnderLint& unit)
      : m_unit(unit), m_tokens(unit.body), m_variables(unit.analysis.variables()) {
    find_unrolled_counters();
  }

  bool type_has(std::size_t id, std::string_view word) const {
    const Variable& v = m_variables[id];
    for (std::size_t k = v.type_begin; k < v.type_end; ++k)
      if (m_tokens[k].is_identifier(word)) return true;
    return false;
  }

  // The sizes of a declared array's dimensions, where they are constants (0 where not).
  std::vector<std::int64_t> dimensions(std::size_t id) const {
    std::vector<std::int64_t> sizes;
    std::size_t k = m_variables[id].declared_at + 1;
    while (k < m_tokens.size() && m_tokens[k].is_punct("[")) {
      const std::size_t close = closing(m_tokens, k);
      const auto value = m_unit.view.constant_value(m_unit.view.text_of(m_tokens, k + 1, close));
      sizes.push_back(value.value_or(0));
      k = close + 1;
    }
    return sizes;
  }

  // Whether the index expression [begin, end), at access position `at`, is resolved at compile
  // time once the loops around it are unrolled; `dimension` is the size of what it indexes.
  bool resolved(std::size_t begin, std::size_t end, std::size_t at, std::int64_t dimension, int depth) const {
    for (std::size_t k = begin; k < end && k < m_tokens.size(); ++k) {
      const Token& t = m_tokens[k];
      if (!t.is_identifier()) continue;
      // A call's result is known at run time (a lane's rank, a function of data), a macro's
      // (MIN(A, B)) and sizeof's at compile time.
      if (k + 1 < end && m_tokens[k + 1].is_punct("(") && !t.is_identifier("sizeof") && !screaming(t.text()))
        return false;
      if (k > 0 && (m_tokens[k - 1].is_punct(".") || m_tokens[k - 1].is_punct("::") || m_tokens[k - 1].is_punct("->")))
        continue;
      if (k + 1 < end && m_tokens[k + 1].is_punct("::")) continue;
      if (t.is_identifier("sizeof")) {
        k = closing(m_tokens, k + 1);
        continue;
      }
      // A member function's result (warp.thread_rank()) or a value read from memory is known
      // only at run time.
      if (k + 3 < end && (m_tokens[k + 1].is_punct(".") || m_tokens[k + 1].is_punct("->")) &&
          m_tokens[k + 2].is_identifier() && m_tokens[k + 3].is_punct("("))
        return false;
      if (k + 1 < end && m_tokens[k + 1].is_punct("[")) return false;
      if (!resolved_name(k, at, dimension, depth)) return false;
    }
    return true;
  }

 private:
  bool resolved_name(std::size_t k, std::size_t at, std::int64_t dimension, int depth) const {
    const std::string_view name = m_tokens[k].text();
    const std::size_t id = m_variables.at(k);
    const bool free = id == Variables::none || m_variables[id].free();
    if (free) {
      bool parameter = false;
      for (const auto& p : m_unit.function.parameters) parameter = parameter || p.name == name;
      if (parameter) return false;
      return m_unit.view.macro_number(name).has_value() || screaming(name) ||
             has_word(m_unit.function.template_parameters, name);
    }
    if (type_has(id, "constexpr")) return true;
    if (std::ranges::any_of(m_counters, [&](const Counter& c) { return c.id == id && at >= c.begin && at < c.end; }))
      return true;
    if (ping_pong(id) && dimension == 2) return true;
    if (depth > 4 || !m_variables.updates(id).empty() || m_variables.assigned(id).empty()) return false;
    return std::ranges::all_of(m_variables.assigned(id),
                               [&](const TokenRange& r) { return resolved(r.begin, r.end, at, 0, depth + 1); });
  }

  // Assigned only integer literals and changed only by ^= a literal: 0, 1, 0, 1, ...
  bool ping_pong(std::size_t id) const {
    const auto& assigned = m_variables.assigned(id);
    const bool literals = !assigned.empty() && std::ranges::all_of(assigned, [&](const TokenRange& r) {
      return r.compound ? (r.begin > 0 && m_tokens[r.begin - 1].is_punct("^=") && r.end == r.begin + 1 &&
                           integer_literal(m_tokens[r.begin]).has_value())
                        : (r.end == r.begin + 1 && integer_literal(m_tokens[r.begin]).has_value());
    });
    return literals && std::ranges::all_of(m_variables.updates(id), [&](std::size_t u) {
             return u + 1 < m_tokens.size() && m_tokens[u + 1].is_punct("^=");
           });
  }

  // The counters of loops with a constant trip count: the condition compares a counter with a
  // compile-time bound and every counter starts at a compile-time value and steps by one.
  void find_unrolled_counters() {
    for (const auto& region : m_unit.analysis.regions()) {
      if (region.kind != ControlRegion::Kind::loop || region.header_begin < 2 ||
          !m_tokens[region.header_begin - 2].is_identifier("for"))
        continue;
      std::size_t first = region.header_begin;
      while (first < region.header_end && !m_tokens[first].is_punct(";")) ++first;
      std::size_t second = first + 1;
      while (second < region.header_end && !m_tokens[second].is_punct(";")) ++second;
      if (second >= region.header_end) continue;
      std::vector<std::size_t> counters;
      for (std::size_t k = region.header_begin; k < first; ++k)
        if (const std::size_t id = m_variables.at(k); id != Variables::none && m_variables.changed_in(id, k, k + 1))
          counters.push_back(id);
      if (counters.empty()) continue;
      const auto counter_at = [&](std::size_t k) {
        const std::size_t id = m_variables.at(k);
        return id != Variables::none && std::ranges::find(counters, id) != counters.end();
      };
      bool constant_bound = true, tests_counter = false;
      for (std::size_t k = first + 1; k < second; ++k) {
        if (!m_tokens[k].is_identifier()) continue;
        if (counter_at(k)) {
          tests_counter = true;
        } else if (!resolved(k, k + 1, region.begin, 0, 2)) {
          constant_bound = false;
        }
      }
      if (!constant_bound || !tests_counter) continue;
      for (std::size_t id : counters) {
        // A counter whose start is not a compile-time value (i = i_start) still steps, but does
        // not index statically; only constant-start counters resolve.
        bool constant_start = true;
        for (const auto& r : m_variables.assigned(id))
          if (r.begin >= region.header_begin && r.end <= first && !r.compound &&
              !resolved(r.begin, r.end, region.begin, 0, 2))
            constant_start = false;
        if (constant_start) m_counters.push_back({id, region.begin, region.end});
      }
    }
  }

  struct Counter {
    std::size_t id, begin, end;
  };
  const FunctionUnderLint& m_unit;
  std::span<const Token> m_tokens;
  const Variables& m_variables;
  std::vector<Counter> m_counters;
};

}  // namespace

void match_local_array_dynamic_index(const Rule&, const FunctionUnderLint& unit, std::vector<Finding>& out) {
  const auto tokens = unit.body;
  const auto& variables = unit.analysis.variables();
  const Indices indices(unit);
  // Per-thread arrays: declared in the body without a memory-space qualifier, with constant
  // dimensions; not where another declaration of the name in this function is __shared__.
  std::vector<std::size_t> arrays, shared;
  for (std::size_t id = 0; id < variables.size(); ++id) {
    if (variables[id].free() || !variables[id].array) continue;
    bool qualified = false;
    for (std::string_view word : {"__shared__", "__constant__", "static", "extern"})
      qualified = qualified || indices.type_has(id, word);
    if (indices.type_has(id, "__shared__")) shared.push_back(id);
    const auto sizes = indices.dimensions(id);
    if (!qualified && !sizes.empty() && sizes.front() > 0) arrays.push_back(id);
  }
  // The same name declared __shared__ in the same block: two branches of an #if this file
  // cannot settle.
  std::erase_if(arrays, [&](std::size_t id) {
    return std::ranges::any_of(shared, [&](std::size_t other) {
      return variables[other].name == variables[id].name && variables[other].scope_end == variables[id].scope_end;
    });
  });
  if (arrays.empty()) return;
  for (std::size_t i = 0; i + 1 < tokens.size(); ++i) {
    const std::size_t id = variables.at(i);
    if (id == Variables::none || !tokens[i + 1].is_punct("[") || variables[id].declared_at == i ||
        std::ranges::find(arrays, id) == arrays.end())
      continue;
    const auto sizes = indices.dimensions(id);
    std::size_t open = i + 1;
    for (std::size_t dimension = 0; open < tokens.size() && tokens[open].is_punct("["); ++dimension) {
      const std::size_t close = closing(tokens, open);
      const std::int64_t size = dimension < sizes.size() ? sizes[dimension] : 0;
      if (!indices.resolved(open + 1, close, i, size, 0)) {
        out.push_back({unit.view.offset(tokens[i]),
                       fmt::format("{}[{}]", tokens[i].text(), clipped(unit.view.text_of(tokens, open + 1, close)))});
        break;
      }
      open = close + 1;
    }
  }
}

}  // namespace kforecast::lint
