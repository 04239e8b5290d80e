// SPDX-License-Identifier: Apache-2.0
#include "lint/body_analysis.hpp"

#include <algorithm>

#include "kernels/token_text.hpp"

namespace kforecast::lint {
namespace {

bool is_open(const Token& token) { return token.is_punct("(") || token.is_punct("[") || token.is_punct("{"); }
bool is_close(const Token& token) { return token.is_punct(")") || token.is_punct("]") || token.is_punct("}"); }

bool contains(const std::vector<std::string_view>& names, std::string_view name) {
  return std::ranges::find(names, name) != names.end();
}

bool is_assignment(const Token& token) {
  if (token.kind != kernels::TokenKind::punctuation) return false;
  const std::string_view text = token.text();
  return text == "=" || text == "+=" || text == "-=" || text == "*=" || text == "/=" || text == "%=" || text == "&=" ||
         text == "|=" || text == "^=" || text == "<<=" || text == ">>=";
}

// Nesting beyond this is not real code; the walk then treats the rest as one statement, so
// hostile input cannot exhaust the stack.
constexpr int max_depth = 200;

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

BodyAnalysis::BodyAnalysis(std::span<const Token> body) : m_tokens(body) {
  derive_thread_dependence();
  find_regions();
}

// A member (gridDim.x, v.x, p->x, f128::size) is not the variable of the same name.
bool BodyAnalysis::member_at(std::size_t at) const {
  return at > 0 && (m_tokens[at - 1].is_punct(".") || m_tokens[at - 1].is_punct("->") || m_tokens[at - 1].is_punct("::"));
}

bool BodyAnalysis::thread_dependent(std::size_t begin, std::size_t end) const {
  for (std::size_t i = begin; i < end && i < m_tokens.size(); ++i)
    if (m_tokens[i].is_identifier() &&
        (m_tokens[i].text() == "threadIdx" || (contains(m_thread_names, m_tokens[i].text()) && !member_at(i))))
      return true;
  return false;
}

// A for loop's own counter (for (int c = 0; c < n; ++c)) is uniform when its initialiser is,
// whatever another loop's counter of the same name holds: names are not scoped here, so the
// counter's other uses are left out of the header's test.
bool BodyAnalysis::loop_thread_dependent(std::size_t begin, std::size_t end) const {
  std::size_t init_end = begin;
  while (init_end < end && !m_tokens[init_end].is_punct(";")) ++init_end;
  std::size_t counter = end;
  for (std::size_t i = begin + 1; i + 1 < init_end; ++i)
    if (m_tokens[i].is_identifier() && m_tokens[i - 1].is_identifier() && m_tokens[i + 1].is_punct("=")) counter = i;
  if (counter == end || init_end == end || thread_dependent(counter + 2, init_end)) return thread_dependent(begin, end);
  for (std::size_t i = init_end; i < end; ++i) {
    if (!m_tokens[i].is_identifier() || (m_tokens[i].text() == m_tokens[counter].text() && !member_at(i))) continue;
    if (thread_dependent(i, i + 1)) return true;
  }
  return false;
}

bool BodyAnalysis::lane_dependent(std::size_t begin, std::size_t end) const {
  for (std::size_t i = begin; i < end && i < m_tokens.size(); ++i) {
    if (!m_tokens[i].is_identifier()) continue;
    if (m_tokens[i].text() == "threadIdx" && i + 2 < m_tokens.size() && m_tokens[i + 1].is_punct(".") &&
        m_tokens[i + 2].is_identifier("x"))
      return true;
    if (contains(m_lane_names, m_tokens[i].text()) && !member_at(i)) return true;
  }
  return false;
}

bool BodyAnalysis::lane_dependent_name(std::string_view name) const { return contains(m_lane_names, name); }

bool BodyAnalysis::lane_stepping_name(std::string_view name) const { return contains(m_stepping_names, name); }

// A mention of threadIdx.x or a stepping name that is not divided or shifted right at once.
bool BodyAnalysis::lane_stepping(std::size_t begin, std::size_t end) const {
  for (std::size_t i = begin; i < end && i < m_tokens.size(); ++i) {
    if (!m_tokens[i].is_identifier()) continue;
    std::size_t after = i + 1;
    if (m_tokens[i].text() == "threadIdx" && i + 2 < m_tokens.size() && m_tokens[i + 1].is_punct(".") &&
        m_tokens[i + 2].is_identifier("x"))
      after = i + 3;
    else if (!contains(m_stepping_names, m_tokens[i].text()) || member_at(i))
      continue;
    const bool divided = after < m_tokens.size() && (m_tokens[after].is_punct("/") || m_tokens[after].is_punct(">>"));
    if (!divided) return true;
  }
  return false;
}

// Names assigned from thread-dependent expressions, to a fixed point (three rounds reach
// what real kernels chain: tid -> i -> row).
void BodyAnalysis::derive_thread_dependence() {
  for (int round = 0; round < 3; ++round) {
    const std::size_t before = m_thread_names.size() + m_lane_names.size() + m_stepping_names.size();
    for (std::size_t i = 1; i < m_tokens.size(); ++i) {
      if (!is_assignment(m_tokens[i]) || !m_tokens[i - 1].is_identifier()) continue;
      const std::string_view name = m_tokens[i - 1].text();
      const std::size_t end = expression_end(m_tokens, i + 1);
      if (!contains(m_thread_names, name) && thread_dependent(i + 1, end)) m_thread_names.push_back(name);
      if (!contains(m_lane_names, name) && lane_dependent(i + 1, end)) m_lane_names.push_back(name);
      if (!contains(m_stepping_names, name) && lane_stepping(i + 1, end)) m_stepping_names.push_back(name);
    }
    if (m_thread_names.size() + m_lane_names.size() + m_stepping_names.size() == before) break;
  }
}

std::size_t BodyAnalysis::statement_end(std::size_t at, int depth) const {
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

void BodyAnalysis::find_regions() {
  const std::size_t n = m_tokens.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Token& token = m_tokens[i];
    if (!token.is_identifier()) continue;
    const bool is_if = token.is_identifier("if"), is_switch = token.is_identifier("switch");
    const bool is_loop = token.is_identifier("for") || token.is_identifier("while");
    if ((is_if || is_switch || is_loop) && i + 1 < n && m_tokens[i + 1].is_punct("(")) {
      if (token.is_identifier("while") && i > 0 && m_tokens[i - 1].is_punct("}")) {
        // the "while (...)" closing a do loop: its region was recorded at "do"
        bool closes_do = false;
        for (const auto& region : m_regions)
          if (region.kind == ControlRegion::Kind::loop && region.end == i && region.header_begin == region.header_end)
            closes_do = true;
        if (closes_do) continue;
      }
      const std::size_t close = std::min(n, closing(m_tokens, i + 1));
      const std::size_t end = statement_end(close + 1, 0);
      ControlRegion region{is_loop ? ControlRegion::Kind::loop : ControlRegion::Kind::branch,
                           i + 2,
                           close,
                           close + 1,
                           end,
                           is_loop ? loop_thread_dependent(i + 2, close) : thread_dependent(i + 2, close)};
      region.elects = is_if && region.thread_dependent &&
                      std::any_of(m_tokens.begin() + static_cast<std::ptrdiff_t>(i + 2),
                                  m_tokens.begin() + static_cast<std::ptrdiff_t>(std::min(close, n)),
                                  [](const Token& t) { return t.is_punct("==") || t.is_punct("!"); });
      m_regions.push_back(region);
      if (is_if && end < n && m_tokens[end].is_identifier("else")) {
        region.begin = end + 1;
        region.elects = false;  // the else branch holds all the other threads
        region.end = statement_end(end + 1, 0);
        m_regions.push_back(region);
      }
    } else if (token.is_identifier("do")) {
      const std::size_t end = statement_end(i + 1, 0);
      m_regions.push_back({ControlRegion::Kind::loop, i + 1, i + 1, i + 1, end, false});
    }
  }
}

bool BodyAnalysis::in_divergent_branch(std::size_t at) const {
  return std::ranges::any_of(m_regions, [&](const ControlRegion& region) {
    return region.thread_dependent && at >= region.begin && at < region.end;
  });
}

bool BodyAnalysis::in_elected_branch(std::size_t at) const {
  return std::ranges::any_of(
      m_regions, [&](const ControlRegion& region) { return region.elects && at >= region.begin && at < region.end; });
}

bool BodyAnalysis::in_loop(std::size_t at) const {
  return std::ranges::any_of(m_regions, [&](const ControlRegion& region) {
    return region.kind == ControlRegion::Kind::loop && at >= region.begin && at < region.end;
  });
}

}  // namespace kforecast::lint
