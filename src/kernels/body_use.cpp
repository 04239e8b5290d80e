// SPDX-License-Identifier: Apache-2.0
#include "kernels/body_use.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "kernels/declaration.hpp"
#include "kernels/token_text.hpp"

namespace kforecast::kernels {
namespace {

struct NameHash {
  std::uint64_t hash;
  std::uint64_t tail;  // a name of up to eight bytes: all of them, so equal tails mean equal names
};

NameHash hash_name(std::string_view name) {
  // Identifiers are short: folding 8-byte words with a multiply spreads them well enough.
  std::uint64_t h = 0x9e3779b97f4a7c15ull ^ name.size();
  std::size_t i = 0;
  for (; i + 8 <= name.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, name.data() + i, 8);
    h = (h ^ word) * 0xff51afd7ed558ccdull;
  }
  // The tail without a memcpy of variable length (a library call): the last eight bytes,
  // overlapping, or the few bytes of a short name one by one.
  std::uint64_t tail = 0;
  if (name.size() >= 8) {
    std::memcpy(&tail, name.data() + name.size() - 8, 8);
  } else {
    for (; i < name.size(); ++i) tail = (tail << 8) | static_cast<unsigned char>(name[i]);
  }
  h = (h ^ tail) * 0xc4ceb9fe1a85ec53ull;
  return {h ^ (h >> 29), tail};
}

// The first eight bytes as one big-endian number, bytes past a short name's end as zero (names
// hold no zero bytes): ordering by it, then by the name, is ordering by the name, and most
// comparisons are then one integer comparison. From the tail hash_name packed, without a loop.
std::uint64_t sort_key(std::string_view name, std::uint64_t tail) {
  if (name.size() < 8) return name.empty() ? 0 : tail << (8 * (8 - name.size()));
  std::uint64_t first;
  std::memcpy(&first, name.data(), 8);
  if constexpr (std::endian::native == std::endian::little) first = __builtin_bswap64(first);
  return first;
}

// Whether the ')' at `close` ends a C-style cast, `(T)` or `(const ns::T*)`, rather than an
// argument list (`pick(k)`) or a parenthesised callee (`(*fp)`, `(table[i])`): `(T)(x)` converts
// x, it calls nothing.
bool closes_cast(std::span<const Token> body, std::size_t close) {
  constexpr std::size_t longest_type = 16;  // tokens; far above `(const unsigned long long*)`
  std::size_t open = close;
  while (open > 0 && close - open < longest_type && !body[open - 1].is_punct("(")) --open;
  if (open == 0 || open == close || !body[open - 1].is_punct("(")) return false;
  if (!body[open].is_identifier()) return false;  // `(*fp)`, `()`
  for (std::size_t k = open; k < close; ++k) {
    const Token& t = body[k];
    if (!t.is_identifier() && !t.is_punct("::") && !t.is_punct("<") && !t.is_punct(">") && !t.is_punct(",") &&
        !t.is_punct("*") && !t.is_punct("&"))
      return false;
  }
  if (open < 2) return true;
  const Token& callee = body[open - 2];  // what stands before the '(': a name calls, `return` casts
  const bool argument_list = (callee.is_identifier() && !is_keyword(callee.text())) || callee.is_punct(")") ||
                             callee.is_punct("]") || callee.is_punct(">");
  return !argument_list;
}

// The class template whose argument list closes at `close` (a '>' or '>>'): "S" for S<T, G>, or
// "" where no name stands before the matching '<' within a few dozen tokens.
std::string_view template_owner(std::span<const Token> body, std::size_t close) {
  constexpr std::size_t longest_arguments = 64;  // tokens
  int depth = 0;
  const std::size_t last = close >= longest_arguments ? close - longest_arguments : 0;
  for (std::size_t k = close;; --k) {
    const std::string_view p = body[k].kind == TokenKind::punctuation ? body[k].text() : std::string_view{};
    if (p == ">") ++depth;
    else if (p == ">>") depth += 2;
    else if (p == "<") --depth;
    if (depth == 0) return k >= 1 && body[k - 1].is_identifier() ? body[k - 1].text() : std::string_view{};
    if (p == ";" || p == "{" || p == "}" || k == last) break;
  }
  return {};
}

// Whether the punctuation at `i` calls something other than a name: x)(, x](, x}(, .*, ->*.
bool calls_a_value(std::span<const Token> body, std::size_t i) {
  const std::string_view p = body[i].text();
  if (p.size() != 1) return p == "->*" || p == ".*";
  if (p[0] != '(' || i == 0 || body[i - 1].kind != TokenKind::punctuation) return false;
  const std::string_view before = body[i - 1].text();
  if (before == ")" && closes_cast(body, i - 1)) return false;
  return before.size() == 1 && (before[0] == ')' || before[0] == ']' || before[0] == '}');
}

}  // namespace

void NameSet::clear() {
  m_names.clear();
  if (++m_generation == 0) {  // wrapped: forget every slot for real
    for (Slot& slot : m_slots) slot.generation = 0;
    m_generation = 1;
  }
}

void NameSet::grow() {
  const std::size_t capacity = std::max<std::size_t>(64, m_slots.size() * 2);
  m_slots.assign(capacity, {});
  for (const auto& [key, name] : m_names) {
    const NameHash hashed = hash_name(name);
    std::size_t slot = hashed.hash & (capacity - 1);
    while (m_slots[slot].generation == m_generation) slot = (slot + 1) & (capacity - 1);
    m_slots[slot] = {name.data(), static_cast<std::uint32_t>(name.size()), m_generation, hashed.hash, hashed.tail};
  }
}

void NameSet::insert(std::string_view name) {
  if ((m_names.size() + 1) * 2 > m_slots.size()) grow();
  const std::size_t mask = m_slots.size() - 1;
  const NameHash hashed = hash_name(name);
  std::size_t slot = hashed.hash & mask;
  while (m_slots[slot].generation == m_generation) {
    const Slot& taken = m_slots[slot];
    // Most names are short and seen again: their bytes are all in the tail, so no memcmp.
    if (taken.hash == hashed.hash && taken.size == name.size() && taken.tail == hashed.tail &&
        (name.size() <= 8 || std::string_view(taken.data, taken.size) == name))
      return;
    slot = (slot + 1) & mask;
  }
  m_slots[slot] = {name.data(), static_cast<std::uint32_t>(name.size()), m_generation, hashed.hash, hashed.tail};
  m_names.emplace_back(sort_key(name, hashed.tail), name);
}

std::vector<std::string_view> NameSet::sorted_without_keywords() const {
  // Sorting (key, view) pairs moves 24 bytes per swap where strings move 32 and may touch the heap.
  thread_local std::vector<std::pair<std::uint64_t, std::string_view>> keyed;
  keyed.clear();
  for (const auto& named : m_names)
    if (!is_keyword(named.second)) keyed.push_back(named);
  std::sort(keyed.begin(), keyed.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first < b.first : a.second < b.second; });
  std::vector<std::string_view> sorted;
  sorted.reserve(keyed.size());
  for (const auto& [key, name] : keyed) sorted.push_back(name);
  return sorted;
}

BodyUse collect_body_use(std::span<const Token> body, std::span<const std::span<const Token>> also_used,
                         NameSet& scratch, TextStore& store) {
  BodyUse use;
  scratch.clear();
  std::vector<std::string_view> auto_locals;
  std::vector<std::pair<std::string_view, std::string_view>> local_aliases;  // `using N = t::Nearest;`
  for (std::size_t i = 0; i < body.size(); ++i) {
    const Token& t = body[i];
    if (t.kind != TokenKind::identifier) {
      if (t.kind == TokenKind::punctuation && !use.calls_indirectly) use.calls_indirectly = calls_a_value(body, i);
      continue;
    }
    scratch.insert(t.text());
    if (t.text() == "using" && i + 3 < body.size() && body[i + 1].is_identifier() && body[i + 2].is_punct("=")) {
      std::size_t semicolon = i + 3;
      while (semicolon < body.size() && !body[semicolon].is_punct(";")) ++semicolon;
      const std::string target = qualified_type_name(body.subspan(i + 3, semicolon - (i + 3)));
      if (!target.empty()) local_aliases.emplace_back(body[i + 1].text(), store.keep(target));
    }
    if (t.text() == "auto") {
      std::size_t k = i + 1;
      while (k < body.size() && (body[k].is_punct("*") || body[k].is_punct("&") || body[k].is_identifier("const"))) ++k;
      if (k + 1 < body.size() && body[k].is_identifier() && body[k + 1].is_punct("="))
        auto_locals.push_back(body[k].text());
    }
    if (i + 1 >= body.size() || body[i + 1].kind != TokenKind::punctuation) continue;
    const Token& after = body[i + 1];
    bool call = after.text() == "(";
    if (after.text() == "<") {
      // f<T>(x) is a call; a < b && c > (d) is two comparisons.
      const std::size_t close = matching_angle(body, i + 1, 64);
      call = close + 1 < body.size() && body[close + 1].is_punct("(") &&
             std::none_of(body.begin() + static_cast<std::ptrdiff_t>(i) + 2,
                          body.begin() + static_cast<std::ptrdiff_t>(close),
                          [](const Token& a) { return a.is_punct("&&") || a.is_punct("||"); });
    } else if (after.text() == "<<") {
      call = i + 2 < body.size() && body[i + 2].is_punct("<");  // a launch: k<<<grid, block>>>(...)
    }
    if (!call || is_keyword(t.text())) continue;
    std::size_t first = i;
    while (first >= 2 && body[first - 1].is_punct("::") && body[first - 2].is_identifier()) first -= 2;
    // A leading "::" means the global f; after S<T>:: the qualifier is a type we cannot name.
    const bool after_template = first >= 2 && (body[first - 2].is_punct(">") || body[first - 2].is_punct(">>"));
    if (first >= 1 && body[first - 1].is_punct("::") && !after_template) --first;
    // S<T, G>::f(...) calls S's member f: also kept as "S::f", which resolves to the member where it
    // is scanned. As plain "f" alone it bound to a free f of the enclosing namespace, and an edit
    // inside S::f went unseen. Both are kept: a call graph may over-find, never miss.
    if (after_template && first == i)
      if (const std::string_view owner = template_owner(body, first - 2); !owner.empty())
        use.calls.push_back(store.keep(fmt::format("{}::{}", owner, t.text())));
    // N::f(...) where N is a local alias also calls the target's f (t::Nearest::f).
    if (first + 2 <= i && body[first].is_identifier())
      for (const auto& [alias, target] : local_aliases)
        if (body[first].text() == alias) {
          std::string through = std::string(target);
          for (std::size_t k = first + 1; k <= i; ++k) through += body[k].text();
          use.calls.push_back(store.keep(through));
        }
    // A qualified name written without spaces is its own view of the source.
    bool contiguous = true;
    for (std::size_t k = first + 1; k <= i && contiguous; ++k)
      contiguous = body[k].text().data() == body[k - 1].text().data() + body[k - 1].text().size();
    if (contiguous) {
      use.calls.emplace_back(body[first].text().data(),
                             static_cast<std::size_t>(t.text().data() + t.text().size() - body[first].text().data()));
    } else {
      std::string name;
      for (std::size_t k = first; k <= i; ++k) name += body[k].text();
      use.calls.push_back(store.keep(name));
    }
  }
  for (const auto tokens : also_used)
    for (const Token& t : tokens)
      if (t.is_identifier()) scratch.insert(t.text());
  use.identifiers = scratch.sorted_without_keywords();
  std::sort(use.calls.begin(), use.calls.end());
  use.calls.erase(std::unique(use.calls.begin(), use.calls.end()), use.calls.end());
  for (const std::string_view local : auto_locals)
    if (std::binary_search(use.calls.begin(), use.calls.end(), local)) use.calls_indirectly = true;
  return use;
}

}  // namespace kforecast::kernels
