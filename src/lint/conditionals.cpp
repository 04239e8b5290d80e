// SPDX-License-Identifier: Apache-2.0
#include "lint/conditionals.hpp"

#include "lint/condition_value.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>

#include "kernels/lexer.hpp"
#include "kernels/token_text.hpp"
#include "lint/source_view.hpp"

namespace kforecast::lint {
namespace {

using kernels::Token;
using kernels::TokenKind;
using Value = std::optional<std::int64_t>;

struct Branch {
  bool parent_live = true;
  bool parent_certain = true;  // every enclosing branch is certainly compiled
  bool live = true;            // this branch may be compiled
  bool certain = true;         // ... and certainly is
  bool decided = false;        // an earlier branch was certainly compiled: the rest are dead
  bool maybe_taken = false;    // an earlier branch may have been compiled
  // The live branches so far, and where the current one started (when it is live).
  std::vector<std::pair<std::size_t, std::size_t>> live_branches;
  std::size_t branch_start = 0;
};

class LiveReader final : public kernels::DirectiveHandler {
 public:
  LiveReader(std::string_view text, LiveCode& out) : m_text(text), m_out(out) {}

  bool directive(const Token& hash, std::span<const Token> words) override {
    const bool was_live = live();
    const std::size_t at = static_cast<std::size_t>(hash.text().data() - m_text.data());
    m_at = at;
    read(words);
    if (was_live && !live()) m_dead_from = at;
    if (!was_live && live()) m_out.dead.emplace_back(m_dead_from, at);
    return live();
  }

  void finish() {
    if (!live()) m_out.dead.emplace_back(m_dead_from, m_text.size());
  }

 private:
  bool live() const { return m_branches.empty() || m_branches.back().live; }
  bool certain() const { return m_branches.empty() || (m_branches.back().live && m_branches.back().certain); }

  Value condition(std::string_view directive, std::span<const Token> rest) const {
    if (directive == "if" || directive == "elif") return condition_value(rest, m_macros);
    if (rest.empty() || !rest[0].is_identifier()) return std::nullopt;
    // #ifdef X is #if defined(X), #ifndef X is #if !defined(X).
    const std::vector<Token> spelled{Token("defined", 0, TokenKind::identifier), rest[0]};
    const Value defined = condition_value(spelled, m_macros);
    if (!defined) return std::nullopt;
    const bool negated = directive == "ifndef" || directive == "elifndef";
    return negated ? Value(*defined == 0) : defined;
  }

  // The branch that ends at the current directive, if it was live.
  void close_branch(Branch& branch) const {
    if (branch.live) branch.live_branches.emplace_back(branch.branch_start, m_at);
    branch.branch_start = m_at;
  }

  void enter(Branch& branch, Value value) {
    branch.live = branch.parent_live && !branch.decided && (!value || *value != 0);
    branch.certain = branch.parent_certain && branch.live && value && *value != 0;
    branch.decided = branch.decided || (value && *value != 0);
    branch.maybe_taken = branch.maybe_taken || branch.live;
  }

  void read(std::span<const Token> words) {
    if (words.empty() || !words[0].is_identifier()) return;
    const std::string_view directive = words[0].text();
    const auto rest = words.subspan(1);
    if (directive == "if" || directive == "ifdef" || directive == "ifndef") {
      Branch branch{live(), certain(), true, true, false, false, {}, m_at};
      enter(branch, live() ? condition(directive, rest) : Value(0));
      m_branches.push_back(branch);
    } else if (directive == "elif" || directive == "elifdef" || directive == "elifndef") {
      if (m_branches.empty()) return;
      Branch& branch = m_branches.back();
      close_branch(branch);
      const std::string_view as_if = directive == "elif" ? "if" : directive == "elifdef" ? "ifdef" : "ifndef";
      enter(branch, branch.parent_live && !branch.decided ? condition(as_if, rest) : Value(0));
    } else if (directive == "else") {
      if (m_branches.empty()) return;
      Branch& branch = m_branches.back();
      close_branch(branch);
      branch.live = branch.parent_live && !branch.decided;
      branch.certain = branch.parent_certain && branch.live && !branch.maybe_taken;
      branch.decided = true;
    } else if (directive == "endif") {
      if (m_branches.empty()) return;
      close_branch(m_branches.back());
      if (m_branches.back().live_branches.size() > 1) m_out.alternatives.push_back(m_branches.back().live_branches);
      m_branches.pop_back();
    } else if (live() && directive == "define") {
      define(rest);
    } else if (live() && directive == "undef" && !rest.empty() && rest[0].is_identifier()) {
      if (certain())
        m_macros.erase(std::string(rest[0].text()));
      else
        m_macros[std::string(rest[0].text())].known = false;
    }
  }

  void define(std::span<const Token> rest) {
    if (rest.empty() || !rest[0].is_identifier()) return;
    MacroState state;
    std::size_t body = 1;
    if (rest.size() > 1 && rest[1].is_punct("(") &&
        rest[1].text().data() == rest[0].text().data() + rest[0].text().size()) {
      state.function_like = true;
      body = std::min(rest.size(), kernels::matching_close(rest, 1) + 1);
    }
    if (body < rest.size()) {
      const char* from = rest[body].text().data();
      const char* to = rest.back().text().data() + rest.back().text().size();
      state.body.assign(from, static_cast<std::size_t>(to - from));
    }
    const std::string name(rest[0].text());
    auto it = m_macros.find(name);
    state.known = certain() && (it == m_macros.end() || (it->second.known && it->second.body == state.body));
    m_macros[name] = std::move(state);
  }

  std::string_view m_text;
  LiveCode& m_out;
  std::vector<Branch> m_branches;
  Macros m_macros;
  std::size_t m_dead_from = 0;
  std::size_t m_at = 0;  // the byte offset of the directive being read
};

}  // namespace

LiveCode cuda_live_code(std::string_view text) {
  LiveCode live;
  LiveReader reader(text, live);
  kernels::lex_code(text, live.code, reader);
  reader.finish();
  return live;
}

bool in_alternative_branches(const LiveCode& live, std::size_t a, std::size_t b) {
  for (const auto& group : live.alternatives) {
    std::size_t branch_a = SIZE_MAX, branch_b = SIZE_MAX;
    for (std::size_t k = 0; k < group.size(); ++k) {
      if (a >= group[k].first && a < group[k].second) branch_a = k;
      if (b >= group[k].first && b < group[k].second) branch_b = k;
    }
    if (branch_a != SIZE_MAX && branch_b != SIZE_MAX && branch_a != branch_b) return true;
  }
  return false;
}

bool in_dead_branch(const LiveCode& live, std::size_t offset) {
  auto it = std::ranges::upper_bound(live.dead, offset, {}, [](const auto& range) { return range.first; });
  return it != live.dead.begin() && offset < std::prev(it)->second;
}

}  // namespace kforecast::lint
