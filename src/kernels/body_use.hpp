// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a function body uses: the names it mentions and the names it calls. This runs over most
// of a source's tokens, so it works on views and allocates per function, not per token.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kernels/scanner.hpp"
#include "kernels/token.hpp"

namespace kforecast::kernels {

// A set of names that keeps its memory from one function to the next.
class NameSet {
 public:
  void clear();
  void insert(std::string_view name);
  // The names inserted since clear(), sorted, keywords left out.
  std::vector<std::string_view> sorted_without_keywords() const;

 private:
  // One cache line holds several slots; the hash's high bits spare most string comparisons.
  struct Slot {
    const char* data = nullptr;
    std::uint32_t size = 0;
    std::uint32_t generation = 0;  // taken when it holds m_generation
    std::uint64_t hash = 0;
    std::uint64_t tail = 0;  // what hash_name packed of the name's last bytes: all of a short name
  };
  void grow();
  std::vector<Slot> m_slots;
  std::vector<std::pair<std::uint64_t, std::string_view>> m_names;  // sort key and name, in insertion order
  std::uint32_t m_generation = 1;
};

// Views of the tokens' text, or of `store` for a qualified call written with spaces or comments
// between its parts ("ns :: f" is kept as "ns::f").
struct BodyUse {
  std::vector<std::string_view> identifiers;  // sorted, unique, keywords left out
  std::vector<std::string_view> calls;        // sorted, unique, as written: "f", "ns::g"
  // A call through something other than a name: table[i](x), pick(k)(x), Op{}(x), (*fp)(x),
  // obj.*member, or a local declared `auto` and then called (auto fn = pick(k); fn(x)).
  bool calls_indirectly = false;
};

// `body` is the tokens between the braces; the identifiers among `also_used` count as used too
// (the signature's, those of preprocessor conditions inside the body) but are never calls.
BodyUse collect_body_use(std::span<const Token> body, std::span<const std::span<const Token>> also_used,
                         NameSet& scratch, TextStore& store);

}  // namespace kforecast::kernels
