// SPDX-License-Identifier: Apache-2.0
#include "lint/body_analysis.hpp"

#include <algorithm>
#include <cctype>

#include "kernels/token_text.hpp"

namespace kforecast::lint {
namespace {

bool is_open(const Token& token) { return token.is_punct("(") || token.is_punct("[") || token.is_punct("{"); }
bool is_close(const Token& token) { return token.is_punct(")") || token.is_punct("]") || token.is_punct("}"); }

// Nesting beyond this is not real code; the walk then treats the rest as one statement, so
// hostile input cannot exhaust the stack.
constexpr int max_depth = 200;

// threadIdx . x starting at `at`.
bool thread_x_at(std::span<const Token> tokens, std::size_t at) {
  return at + 2 < tokens.size() && tokens[at].is_identifier("threadIdx") && tokens[at + 1].is_punct(".") &&
         tokens[at + 2].is_identifier("x");
}

// A cooperative group's rank of the calling thread: block.thread_rank(), warp.thread_rank()
// (lane-stepping), warp.meta_group_rank() (the warp's index: thread-dependent, not per lane).
bool rank_call_at(std::span<const Token> tokens, std::size_t at, bool lane_only) {
  if (at == 0 || at + 1 >= tokens.size() || !tokens[at + 1].is_punct("(")) return false;
  if (!(tokens[at - 1].is_punct(".") || tokens[at - 1].is_punct("->") || tokens[at - 1].is_punct("::"))) return false;
  return tokens[at].is_identifier("thread_rank") || (!lane_only && tokens[at].is_identifier("meta_group_rank"));
}

// Where what starts at `at` is known at compile time, the index after it: sizeof(...),
// alignof(...), decltype(...), and CuTe's static extents size<I>(t), rank<I>(t), depth<I>(t).
std::size_t after_compile_time(std::span<const Token> tokens, std::size_t at) {
  const Token& t = tokens[at];
  if (!t.is_identifier()) return at;
  if ((t.is_identifier("sizeof") || t.is_identifier("alignof") || t.is_identifier("decltype")) &&
      at + 1 < tokens.size() && tokens[at + 1].is_punct("("))
    return kernels::matching_close(tokens, at + 1) + 1;
  if ((t.is_identifier("size") || t.is_identifier("rank") || t.is_identifier("depth") || t.is_identifier("cosize")) &&
      at + 1 < tokens.size() && tokens[at + 1].is_punct("<") &&
      (at == 0 || !(tokens[at - 1].is_punct(".") || tokens[at - 1].is_punct("->")))) {
    const std::size_t close = kernels::matching_angle(tokens, at + 1);
    if (close + 1 < tokens.size() && tokens[close + 1].is_punct("("))
      return kernels::matching_close(tokens, close + 1) + 1;
  }
  return at;
}

// A name whose value the compiler knows: SCREAMING_CASE (macros, enums, constexpr by
// convention), a member of a type (Traits::COLS), a number.
bool compile_time_word(std::span<const Token> tokens, std::size_t at) {
  const Token& t = tokens[at];
  if (t.kind == kernels::TokenKind::number) return true;
  if (!t.is_identifier()) return true;
  if (at > 0 && tokens[at - 1].is_punct("::")) return true;
  if (at + 1 < tokens.size() && tokens[at + 1].is_punct("::")) return true;
  return std::ranges::none_of(t.text(), [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; });
}

}  // namespace

std::size_t closing(std::span<const Token> tokens, std::size_t open) { return kernels::matching_close(tokens, open); }

std::size_t expression_end(std::span<const Token> tokens, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at; i < tokens.size(); ++i) {
    if (is_open(tokens[i])) ++depth;
    if (is_close(tokens[i]) && depth-- == 0) return i;
    if (depth == 0 && (tokens[i].is_punct(",") || tokens[i].is_punct(";"))) return i;
  }
  return tokens.size();
}

namespace {

std::vector<Variables::ForHeader> for_headers(std::span<const Token> tokens,
                                              const std::vector<ControlRegion>& regions) {
  std::vector<Variables::ForHeader> headers;
  for (const auto& region : regions)
    if (region.kind == ControlRegion::Kind::loop && region.header_begin >= 2 &&
        tokens[region.header_begin - 2].is_identifier("for"))
      headers.push_back({region.header_begin, region.header_end, region.end});
  return headers;
}

// A loop macro by the usual naming (CUDA_1D_KERNEL_LOOP, CUDA_KERNEL_LOOP): upper case, ending
// in LOOP, followed by its arguments and a braced body.
bool loop_macro(std::string_view name) {
  return name.size() > 5 && name.ends_with("_LOOP") &&
         std::ranges::none_of(name, [](char c) { return std::islower(static_cast<unsigned char>(c)) != 0; });
}

// The extents of every branch and loop, without their thread dependence (that needs the
// variables, whose scopes need these extents).
class RegionFinder {
 public:
  explicit RegionFinder(std::span<const Token> tokens) : m_tokens(tokens) {}

  std::size_t statement_end(std::size_t at, int depth) const {
    const std::size_t n = m_tokens.size();
    if (at >= n) return n;
    const Token& token = m_tokens[at];
    if (depth < max_depth) {
      if (token.is_punct("{")) return std::min(n, closing(m_tokens, at) + 1);
      const bool headed = token.is_identifier("if") || token.is_identifier("for") || token.is_identifier("while") ||
                          token.is_identifier("switch");
      if (headed && at + 1 < n && m_tokens[at + 1].is_punct("(")) {
        const std::size_t close = closing(m_tokens, at + 1);
        std::size_t end = statement_end(close + 1, depth + 1);
        if (token.is_identifier("if") && end < n && m_tokens[end].is_identifier("else"))
          end = statement_end(end + 1, depth + 1);
        return end;
      }
      if (token.is_identifier("do")) {
        std::size_t end = statement_end(at + 1, depth + 1);
        if (end < n && m_tokens[end].is_identifier("while") && end + 1 < n && m_tokens[end + 1].is_punct("("))
          end = closing(m_tokens, end + 1) + 1;
        return std::min(n, end + (end < n && m_tokens[end].is_punct(";") ? 1 : 0));
      }
    }
    int nesting = 0;
    for (std::size_t i = at; i < n; ++i) {
      if (is_open(m_tokens[i])) ++nesting;
      if (is_close(m_tokens[i]) && nesting-- == 0) return i;  // a stray close ends the statement
      if (nesting == 0 && m_tokens[i].is_punct(";")) return i + 1;
    }
    return n;
  }

  std::vector<ControlRegion> find() const {
    std::vector<ControlRegion> regions;
    const std::size_t n = m_tokens.size();
    for (std::size_t i = 0; i < n; ++i) {
      const Token& token = m_tokens[i];
      if (!token.is_identifier()) continue;
      const bool is_if = token.is_identifier("if"), is_switch = token.is_identifier("switch");
      const bool is_loop = token.is_identifier("for") || token.is_identifier("while");
      if ((is_if || is_switch || is_loop) && i + 1 < n && m_tokens[i + 1].is_punct("(")) {
        if (token.is_identifier("while") && i > 0 && m_tokens[i - 1].is_punct("}")) {
          // the "while (...)" closing a do loop: its region was recorded at "do"
          const bool closes_do = std::ranges::any_of(regions, [&](const ControlRegion& r) {
            return r.kind == ControlRegion::Kind::loop && r.end == i && r.header_begin == r.header_end;
          });
          if (closes_do) continue;
        }
        const std::size_t close = std::min(n, closing(m_tokens, i + 1));
        const std::size_t end = statement_end(close + 1, 0);
        ControlRegion region{is_loop ? ControlRegion::Kind::loop : ControlRegion::Kind::branch, i + 2, close, close + 1,
                             end};
        regions.push_back(region);
        if (is_if && end < n && m_tokens[end].is_identifier("else")) {
          region.begin = end + 1;
          region.end = statement_end(end + 1, 0);
          region.else_branch = true;
          regions.push_back(region);
        }
      } else if (token.is_identifier("do")) {
        regions.push_back({ControlRegion::Kind::loop, i + 1, i + 1, i + 1, statement_end(i + 1, 0)});
      } else if (loop_macro(token.text()) && i + 1 < n && m_tokens[i + 1].is_punct("(") &&
                 (i == 0 || !m_tokens[i - 1].is_punct("."))) {
        // CUDA_1D_KERNEL_LOOP(i, n) { ... }: a macro that expands to a grid-stride for loop.
        const std::size_t close = std::min(n, closing(m_tokens, i + 1));
        if (close + 1 < n && m_tokens[close + 1].is_punct("{"))
          regions.push_back({ControlRegion::Kind::loop, i + 2, close, close + 1, statement_end(close + 1, 0)});
      }
    }
    return regions;
  }

 private:
  std::span<const Token> m_tokens;
};

}  // namespace

BodyAnalysis::BodyAnalysis(std::span<const Token> body, std::span<const std::string_view> asserted)
    : m_tokens(body),
      m_asserted(asserted),
      m_regions(RegionFinder(body).find()),
      m_variables(body, for_headers(body, m_regions)) {
  derive_thread_dependence();
  mark_divergent_regions();
}

std::size_t BodyAnalysis::statement_end(std::size_t at, int depth) const {
  return RegionFinder(m_tokens).statement_end(at, depth);
}

// Whether [begin, end) reads threadIdx (threadIdx.x when lane_only), a cooperative group's
// rank, or a variable marked in `names`; `except` is left out (a loop's own counter).
bool BodyAnalysis::reads(std::size_t begin, std::size_t end, const std::vector<bool>& names, bool lane_only,
                         std::size_t except) const {
  end = std::min(end, m_tokens.size());
  for (std::size_t i = begin; i < end; ++i) {
    if (const std::size_t skip = after_compile_time(m_tokens, i); skip != i) {
      i = skip - 1;
      continue;
    }
    if (!m_tokens[i].is_identifier()) continue;
    if (lane_only ? thread_x_at(m_tokens, i) : m_tokens[i].is_identifier("threadIdx")) return true;
    if (rank_call_at(m_tokens, i, lane_only)) return true;
    const std::size_t id = m_variables.at(i);
    if (id != Variables::none && id != except && id < names.size() && names[id]) return true;
  }
  return false;
}

bool BodyAnalysis::thread_dependent(std::size_t begin, std::size_t end) const {
  return reads(begin, end, m_thread, false);
}

bool BodyAnalysis::lane_dependent(std::size_t begin, std::size_t end) const { return reads(begin, end, m_lane, true); }

bool BodyAnalysis::lane_dependent_at(std::size_t at) const {
  const std::size_t id = m_variables.at(at);
  return id != Variables::none && m_lane[id];
}

bool BodyAnalysis::lane_stepping_at(std::size_t at) const {
  const std::size_t id = m_variables.at(at);
  return id != Variables::none && m_stepping[id];
}

// A mention of threadIdx.x or a stepping variable that is not divided or shifted right at once.
// What is loaded through a subscript (ids[tid]) is data, not a lane's position: skipped.
bool BodyAnalysis::lane_stepping(std::size_t begin, std::size_t end) const {
  for (std::size_t i = begin; i < end && i < m_tokens.size(); ++i) {
    if (const std::size_t skip = after_compile_time(m_tokens, i); skip != i) {
      i = skip - 1;
      continue;
    }
    if (m_tokens[i].is_punct("[")) {
      i = closing(m_tokens, i);
      continue;
    }
    if (!m_tokens[i].is_identifier()) continue;
    std::size_t after = i + 1;
    if (thread_x_at(m_tokens, i))
      after = i + 3;
    else if (rank_call_at(m_tokens, i, true))
      after = closing(m_tokens, i + 1) + 1;
    else if (!lane_stepping_at(i))
      continue;
    const bool divided = after < m_tokens.size() && (m_tokens[after].is_punct("/") || m_tokens[after].is_punct(">>"));
    if (!divided) return true;
  }
  return false;
}

// Variables assigned from thread-dependent expressions, to a fixed point (a few rounds reach
// what real kernels chain: tid -> i -> row).
void BodyAnalysis::derive_thread_dependence() {
  const std::size_t count = m_variables.size();
  m_thread.assign(count, false);
  m_lane.assign(count, false);
  m_stepping.assign(count, false);
  for (int round = 0; round < 4; ++round) {
    bool changed = false;
    for (std::size_t id = 0; id < count; ++id)
      for (const auto& [begin, end, compound] : m_variables.assigned(id)) {
        if (!m_thread[id] && thread_dependent(begin, end)) m_thread[id] = changed = true;
        if (!m_lane[id] && lane_dependent(begin, end)) m_lane[id] = changed = true;
        if (!m_stepping[id] && lane_stepping(begin, end)) m_stepping[id] = changed = true;
      }
    if (!changed) break;
  }
}

// A loop is divergent when its condition or step reads a thread-dependent value other than its
// own counter, or when the counter starts thread-dependent: threads then run different numbers
// of iterations. Not when the bound is pinned by a static_assert and the step is a compile-time
// constant (every thread runs the same tiling), nor for a counter that starts uniform.
bool BodyAnalysis::loop_thread_dependent(std::size_t begin, std::size_t end) const {
  std::size_t first = begin;
  while (first < end && !m_tokens[first].is_punct(";")) ++first;
  if (first >= end) return thread_dependent(begin, end);  // while (cond)
  std::size_t second = first + 1;
  while (second < end && !m_tokens[second].is_punct(";")) ++second;
  // The counters: variables the init clause declares or assigns.
  std::vector<std::size_t> counters;
  for (std::size_t i = begin; i < first; ++i)
    if (const std::size_t id = m_variables.at(i); id != Variables::none && m_variables.changed_in(id, i, i + 1))
      counters.push_back(id);
  const auto reads_other = [&](std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) {
      if (const std::size_t skip = after_compile_time(m_tokens, i); skip != i) {
        i = skip - 1;
        continue;
      }
      const std::size_t id = m_variables.at(i);
      if (id != Variables::none && std::ranges::find(counters, id) != counters.end()) continue;
      if (thread_dependent(i, i + 1)) return true;
    }
    return false;
  };
  if (reads_other(first + 1, second) || reads_other(second + 1, end)) return true;
  // Only a counter the condition tests decides the trip count: in for (j = 0, w = tid; j < n;
  // ++j) the second counter differs per thread, the number of iterations does not.
  bool tested_counter_differs = false;
  for (std::size_t i = first + 1; i < second; ++i) {
    const std::size_t id = m_variables.at(i);
    if (id != Variables::none && std::ranges::find(counters, id) != counters.end() && m_thread[id])
      tested_counter_differs = true;
  }
  if (!tested_counter_differs) return false;
  // A thread-dependent start: uniform only where a static_assert pins a compile-time bound and
  // the step is a compile-time constant.
  bool asserted = false, constant = true;
  for (std::size_t i = first + 1; i < second; ++i) {
    const std::size_t id = m_variables.at(i);
    if (id != Variables::none && std::ranges::find(counters, id) != counters.end()) continue;
    const bool qualifier = i + 1 < second && m_tokens[i + 1].is_punct("::");  // the Traits of Traits::COLS
    if (m_tokens[i].is_identifier() && !qualifier &&
        std::ranges::find(m_asserted, m_tokens[i].text()) != m_asserted.end())
      asserted = true;
    if (!compile_time_word(m_tokens, i)) constant = false;
  }
  for (std::size_t i = second + 1; i < end; ++i) {
    const std::size_t id = m_variables.at(i);
    if (id != Variables::none && std::ranges::find(counters, id) != counters.end()) continue;
    if (!compile_time_word(m_tokens, i)) constant = false;
  }
  return !(asserted && constant);
}

void BodyAnalysis::mark_divergent_regions() {
  for (auto& region : m_regions) {
    const bool is_for = region.kind == ControlRegion::Kind::loop && region.header_begin >= 2 &&
                        m_tokens[region.header_begin - 2].is_identifier("for");
    region.thread_dependent = is_for ? loop_thread_dependent(region.header_begin, region.header_end)
                                     : thread_dependent(region.header_begin, region.header_end);
    const bool is_if = region.kind == ControlRegion::Kind::branch && region.header_begin >= 2 &&
                       m_tokens[region.header_begin - 2].is_identifier("if");
    region.elects = is_if && !region.else_branch && region.thread_dependent &&
                    std::any_of(m_tokens.begin() + static_cast<std::ptrdiff_t>(region.header_begin),
                                m_tokens.begin() + static_cast<std::ptrdiff_t>(region.header_end),
                                [](const Token& t) { return t.is_punct("==") || t.is_punct("!"); });
  }
}

bool BodyAnalysis::in_divergent_branch(std::size_t at) const { return outermost_divergent(at) != nullptr; }

const ControlRegion* BodyAnalysis::outermost_divergent(std::size_t at) const {
  const ControlRegion* outermost = nullptr;
  for (const auto& region : m_regions)
    if (region.thread_dependent && at >= region.begin && at < region.end &&
        (outermost == nullptr || region.begin < outermost->begin))
      outermost = &region;
  return outermost;
}

bool BodyAnalysis::in_elected_branch(std::size_t at) const {
  return std::ranges::any_of(
      m_regions, [&](const ControlRegion& region) { return region.elects && at >= region.begin && at < region.end; });
}

bool BodyAnalysis::exclusive(std::size_t a, std::size_t b) const {
  if (a > b) std::swap(a, b);
  for (const auto& region : m_regions) {
    if (region.else_branch && b >= region.begin && b < region.end) {
      for (const auto& other : m_regions)
        if (!other.else_branch && other.header_begin == region.header_begin && a >= other.begin && a < other.end)
          return true;
    }
    const bool is_switch = region.kind == ControlRegion::Kind::branch && region.header_begin >= 2 &&
                           m_tokens[region.header_begin - 2].is_identifier("switch");
    if (!is_switch || a < region.begin || b >= region.end) continue;
    // A case label of this switch (at its top brace depth) between the two.
    int depth = 0;
    for (std::size_t k = region.begin; k < b; ++k) {
      if (m_tokens[k].is_punct("{")) ++depth;
      if (m_tokens[k].is_punct("}")) --depth;
      if (k > a && depth == 1 && (m_tokens[k].is_identifier("case") || m_tokens[k].is_identifier("default")))
        return true;
    }
  }
  return false;
}

const ControlRegion* BodyAnalysis::innermost_loop(std::size_t at) const {
  const ControlRegion* innermost = nullptr;
  for (const auto& region : m_regions)
    if (region.kind == ControlRegion::Kind::loop && at >= region.begin && at < region.end &&
        (innermost == nullptr || region.begin > innermost->begin))
      innermost = &region;
  return innermost;
}

}  // namespace kforecast::lint
