// SPDX-License-Identifier: Apache-2.0
// Pointer parameters without __restrict__ where it would change the code: a load through one
// comes after a store through another, so without the promise that they do not overlap the
// compiler must keep the load after the store and cannot reuse a value loaded before it. Not
// where it changes nothing: every load of a thread precedes its stores (load once, store once),
// at most one pointer lacks __restrict__ (the others already promise it), the loads go through
// __ldg (already the read-only path), or a pointer is volatile (a flag or semaphore whose every
// access must happen anyway).

#include <algorithm>
#include <cctype>
#include <tuple>

#include <fmt/format.h>

#include "kernels/token_text.hpp"
#include "lint/matchers.hpp"

namespace kforecast::lint {
namespace {

enum class Access { load, store, both, none };

struct PointerUse {
  std::size_t parameter;  // index into the unrestricted parameters
  std::size_t at;         // token index in the body where it happens (a store: its statement's end)
  std::size_t token;      // token index of the pointer's name
  Access access;
  std::string text;  // the access as written: out[i]
};

bool assignment_after(std::span<const Token> tokens, std::size_t at) {
  if (at >= tokens.size()) return false;
  const Token& t = tokens[at];
  if (t.is_punct("++") || t.is_punct("--")) return true;
  if (t.kind != kernels::TokenKind::punctuation || t.text().empty() || t.text().back() != '=') return false;
  return !t.is_punct("==") && !t.is_punct("!=") && !t.is_punct("<=") && !t.is_punct(">=");
}

// The name of the call whose argument list directly holds token `at`, or "".
std::string_view callee_of_argument(std::span<const Token> tokens, std::size_t at) {
  std::size_t k = at;
  for (int depth = 0; k > 0; --k) {
    const Token& t = tokens[k - 1];
    if (t.is_punct(")") || t.is_punct("]")) ++depth;
    if (t.is_punct("(") || t.is_punct("[")) {
      if (depth == 0) break;
      --depth;
    }
    if (depth == 0 && (t.is_punct(";") || t.is_punct("{") || t.is_punct("}"))) return {};
  }
  if (k < 2 || !tokens[k - 1].is_punct("(")) return {};
  // Parentheses after an operator group an expression (&(out[i])): the call is further out.
  if (!tokens[k - 2].is_identifier() && !tokens[k - 2].is_punct(">")) return callee_of_argument(tokens, k - 1);
  std::size_t callee = k - 2;
  if (tokens[callee].is_punct(">")) {
    for (int depth = 0; callee > 0; --callee) {
      if (tokens[callee].is_punct(">")) ++depth;
      if (tokens[callee].is_punct("<") && --depth == 0) break;
    }
    if (callee == 0) return {};
    --callee;
  }
  return tokens[callee].is_identifier() ? tokens[callee].text() : std::string_view();
}

// How a pointer is used at `at` (its name's token): through a subscript, *p, p->, a vector cast
// of &p[i], or as a call's argument (atomics read and write; store*, __st* write; load*, __ld*
// read; __ldg reads through the read-only path already, and other calls are not known).
Access access_at(std::span<const Token> tokens, std::size_t at) {
  const std::size_t n = tokens.size();
  std::size_t end = at + 1;
  while (end < n && (tokens[end].is_punct("[") || tokens[end].is_punct("->") || tokens[end].is_punct("."))) {
    if (tokens[end].is_punct("[")) {
      end = closing(tokens, end) + 1;
    } else {
      end += 2;
    }
  }
  const bool dereferenced =
      end > at + 1 ||
      (at > 0 && tokens[at - 1].is_punct("*") &&
       (at < 2 || !(tokens[at - 2].is_identifier() || tokens[at - 2].is_punct(")") || tokens[at - 2].is_punct("]"))));
  std::string callee(callee_of_argument(tokens, at));
  for (char& c : callee) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool address = at > 0 && (tokens[at - 1].is_punct("&") || tokens[at - 1].is_punct("+") ||
                                  (at > 1 && tokens[at - 1].is_punct("(") && tokens[at - 2].is_punct("&")));
  if (!callee.empty() && (address || !dereferenced || (end < n && tokens[end].is_punct("+")))) {
    if (callee == "__ldg") return Access::none;
    // An atomic is ordered with the other memory operations anyway: what restrict would let
    // move is a plain load or store around it.
    if (callee.starts_with("atomic")) return Access::store;
    if (callee.starts_with("store") || callee.starts_with("__st")) return Access::store;
    if (callee.starts_with("load") || callee.starts_with("__ld")) return Access::load;
    if (callee == "reinterpret_cast" || callee == "static_cast") {
      // reinterpret_cast<float4*>(&out[i])[0] = v
      std::size_t close = at;
      for (int depth = 0; close < n; ++close) {
        if (tokens[close].is_punct("(") || tokens[close].is_punct("[")) ++depth;
        if ((tokens[close].is_punct(")") || tokens[close].is_punct("]")) && depth-- == 0) break;
      }
      std::size_t after = close + 1;
      if (after >= n || !tokens[after].is_punct("[")) return Access::none;  // a pointer cast, no access
      while (after < n && tokens[after].is_punct("[")) after = closing(tokens, after) + 1;
      return assignment_after(tokens, after) ? Access::store : Access::load;
    }
    if (!dereferenced) return Access::none;
  }
  if (!dereferenced) return Access::none;
  if (assignment_after(tokens, end)) {
    const bool compound = end < n && !tokens[end].is_punct("=");
    return compound ? Access::both : Access::store;
  }
  if (at > 0 && (tokens[at - 1].is_punct("++") || tokens[at - 1].is_punct("--"))) return Access::both;
  return Access::load;
}

}  // namespace

void match_pointer_parameters_without_restrict(const Rule& rule, const FunctionUnderLint& unit,
                                               std::vector<Finding>& out) {
  struct Pointer {
    std::string_view name;
    std::string type;
  };
  std::vector<Pointer> unrestricted;
  std::size_t pointers = 0;
  for (const auto& parameter : unit.function.parameters) {
    if (parameter.type.find('*') == std::string::npos) continue;
    ++pointers;
    if (has_word(parameter.type, "__restrict__") || has_word(parameter.type, "__restrict") ||
        has_word(parameter.type, "volatile") || parameter.name.empty())
      continue;
    unrestricted.push_back({parameter.name, parameter.type});
  }
  if (static_cast<std::int64_t>(pointers) < rule.match.min_pointers || unrestricted.size() < 2) return;

  const auto tokens = unit.body;
  const auto& variables = unit.analysis.variables();
  // Each parameter's variable, and local pointers set from it (const float* row = inp + k).
  std::vector<std::size_t> owner(variables.size(), SIZE_MAX);
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::size_t id = variables.at(i);
    if (id == Variables::none || !variables[id].free()) continue;
    for (std::size_t p = 0; p < unrestricted.size(); ++p)
      if (variables[id].name == unrestricted[p].name) owner[id] = p;
  }
  for (int round = 0; round < 2; ++round)
    for (std::size_t id = 0; id < variables.size(); ++id) {
      if (variables[id].free() || owner[id] != SIZE_MAX) continue;
      const std::string type = unit.view.text_of(tokens, variables[id].type_begin, variables[id].type_end);
      if (type.find('*') == std::string::npos || has_word(type, "__restrict__")) continue;
      for (const auto& [begin, end, compound] : variables.assigned(id))
        for (std::size_t k = begin; k < end && !compound; ++k)
          if (const std::size_t from = variables.at(k); from != Variables::none && owner[from] != SIZE_MAX) {
            owner[id] = owner[from];
            break;
          }
    }
  std::vector<PointerUse> uses;
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    const std::size_t id = variables.at(i);
    if (id == Variables::none || owner[id] == SIZE_MAX || variables[id].declared_at == i) continue;
    if (i > 0 && tokens[i - 1].is_identifier("asm")) continue;
    const Access access = access_at(tokens, i);
    if (access == Access::none) continue;
    std::size_t end = i + 1;
    while (end < tokens.size() && tokens[end].is_punct("[")) end = closing(tokens, end) + 1;
    // A store happens when its statement's right side has been evaluated: at the statement's end.
    std::size_t when = i;
    if (access != Access::load) {
      when = i;
      for (int depth = 0; when < tokens.size(); ++when) {
        if (tokens[when].is_punct("(") || tokens[when].is_punct("[") || tokens[when].is_punct("{")) ++depth;
        if ((tokens[when].is_punct(")") || tokens[when].is_punct("]") || tokens[when].is_punct("}")) && depth-- == 0)
          break;
        if (depth == 0 && (tokens[when].is_punct(";") || tokens[when].is_punct(","))) break;
      }
    }
    uses.push_back({owner[id], when, i, access, clipped(unit.view.text_of(tokens, i, end), 22)});
  }
  std::ranges::sort(
      uses, [](const PointerUse& a, const PointerUse& b) { return std::tie(a.at, a.token) < std::tie(b.at, b.token); });
  // A load through one pointer after a store through another, in the order the code runs.
  const PointerUse* store = nullptr;
  const PointerUse* load = nullptr;
  for (const auto& use : uses) {
    if (use.access == Access::load || use.access == Access::both)
      for (const auto& earlier : uses) {
        if (earlier.at >= use.at) break;
        // A store inside a loop that the load comes after: the loop's stores are behind it in
        // any order the compiler could choose, so restrict would move nothing.
        const ControlRegion* loop = unit.analysis.innermost_loop(earlier.token);
        if (loop != nullptr && use.token >= loop->end) continue;
        if (earlier.parameter != use.parameter && (earlier.access == Access::store || earlier.access == Access::both) &&
            !unit.analysis.exclusive(earlier.token, use.token) &&
            !unit.view.alternatives(unit.view.offset(tokens[earlier.token]), unit.view.offset(tokens[use.token]))) {
          store = &earlier;
          load = &use;
          break;
        }
      }
    if (load != nullptr) break;
  }
  // Across iterations: a load before a store in a loop that holds both runs again after that
  // store. It matters where the data is read again (the pointer is loaded in more than one place,
  // as in a second pass), not for a streaming loop that loads each element once.
  if (load == nullptr)
    for (const auto& use : uses) {
      if (use.access != Access::load && use.access != Access::both) continue;
      const ControlRegion* loop = unit.analysis.innermost_loop(use.token);
      if (loop == nullptr) continue;
      // A store through another pointer in the loop around token `at`.
      const auto stores_around = [&](std::size_t at) {
        const ControlRegion* around = unit.analysis.innermost_loop(at);
        return around != nullptr && std::ranges::any_of(uses, [&](const PointerUse& u) {
                 return u.parameter != use.parameter && u.access != Access::load && u.token >= around->begin &&
                        u.token < around->end;
               });
      };
      // Loads of the same pointer in the loop, or before it in a pass that only reads (softmax's
      // first pass); not those of an earlier copying loop, whose tail this loop may be.
      const auto loads_of_pointer = std::ranges::count_if(uses, [&](const PointerUse& u) {
        if (u.parameter != use.parameter || u.access == Access::store) return false;
        if (u.token >= loop->begin && u.token < loop->end) return true;
        return u.token < loop->begin && !stores_around(u.token);
      });
      if (loads_of_pointer < 2) continue;
      for (const auto& other : uses)
        if (other.parameter != use.parameter && (other.access == Access::store || other.access == Access::both) &&
            other.token >= loop->begin && other.token < loop->end && !unit.analysis.exclusive(other.token, use.token)) {
          store = &other;
          load = &use;
          break;
        }
      if (load != nullptr) break;
    }
  if (load == nullptr) return;
  // The two parameters as declared, restrict added (and const where never written); the others
  // that lack it are counted, so that the note stays one line.
  std::vector<std::string> rewritten;
  for (std::size_t p : {store->parameter, load->parameter}) {
    const bool written = std::ranges::any_of(uses, [&](const PointerUse& u) {
      return u.parameter == p && (u.access == Access::store || u.access == Access::both);
    });
    std::string type = unrestricted[p].type;
    if (!written && !has_word(type, "const")) type = "const " + type;
    rewritten.push_back(fmt::format("{} __restrict__ {}", type, unrestricted[p].name));
  }
  std::string fix = fmt::format("{}", fmt::join(rewritten, ", "));
  if (unrestricted.size() > 2) fix += fmt::format(" (and {} more)", unrestricted.size() - 2);
  std::size_t at = unit.function.signature.begin;
  for (const auto& token : unit.signature)
    if (token.is_identifier(unit.function.name)) {
      at = unit.view.offset(token);
      break;
    }
  Finding finding{at, fmt::format("'{}' loaded after a store to '{}'", load->text, store->text), true};
  finding.fix = std::move(fix);
  out.push_back(std::move(finding));
}

}  // namespace kforecast::lint
