// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the structural matchers need to know about a function body, found from its tokens: which
// variables differ between the threads of a block (derived from threadIdx), which differ between
// neighbouring threads of a warp (derived from threadIdx.x), and the branches and loops with
// their extents. It is a token-level approximation, not a compiler's data flow: a value is
// thread-dependent when an assignment to it mentions threadIdx or another thread-dependent name.

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/token.hpp"

namespace kforecast::lint {

using kernels::Token;

struct ControlRegion {
  enum class Kind { branch, loop };
  Kind kind = Kind::branch;
  std::size_t header_begin = 0, header_end = 0;  // the condition's tokens (for a loop, the whole header)
  std::size_t begin = 0, end = 0;                // the controlled statement's tokens
  bool thread_dependent = false;                 // the condition differs between threads of a block
  bool elects = false;                           // ... and tests equality or negation: few threads pass
};

class BodyAnalysis {
 public:
  // `body` is a function body's tokens, braces included; `thread_parameters` are parameter
  // names known to differ between threads (none for a kernel).
  explicit BodyAnalysis(std::span<const Token> body);

  std::span<const Token> tokens() const { return m_tokens; }
  const std::vector<ControlRegion>& regions() const { return m_regions; }

  // Whether the tokens [begin, end) mention threadIdx or a name derived from it.
  bool thread_dependent(std::size_t begin, std::size_t end) const;
  // Whether they mention threadIdx.x or a name derived from it: neighbouring lanes differ.
  bool lane_dependent(std::size_t begin, std::size_t end) const;
  bool lane_dependent_name(std::string_view name) const;
  // Whether the name steps with threadIdx.x, lane by lane: derived from it other than only
  // through a division or right shift (threadIdx.x / 32 or tid >> 2 is the same for a group of
  // neighbouring lanes, so it is not the fastest-varying index of an address).
  bool lane_stepping_name(std::string_view name) const;
  // Whether token `at` lies in a branch whose condition is thread-dependent.
  bool in_divergent_branch(std::size_t at) const;
  // Whether token `at` lies in a branch that elects one thread or lane by a thread-dependent
  // equality or negation (if (threadIdx.x == 0), if (lane == 0), if (!tid)).
  bool in_elected_branch(std::size_t at) const;
  // Whether token `at` lies in the body of a loop.
  bool in_loop(std::size_t at) const;

 private:
  void derive_thread_dependence();
  bool lane_stepping(std::size_t begin, std::size_t end) const;
  bool member_at(std::size_t at) const;
  bool loop_thread_dependent(std::size_t begin, std::size_t end) const;
  void find_regions();
  std::size_t statement_end(std::size_t at, int depth) const;

  std::span<const Token> m_tokens;
  std::vector<std::string_view> m_thread_names;  // derived from any threadIdx component
  std::vector<std::string_view> m_lane_names;    // derived from threadIdx.x
  std::vector<std::string_view> m_stepping_names;  // ... and stepping with it (lane_stepping_name)
  std::vector<ControlRegion> m_regions;
};

// The index of the token closing the bracket at `open` ((, [ or {), or tokens.size().
std::size_t closing(std::span<const Token> tokens, std::size_t open);
// The end of the expression starting at `at`: the first ',' ';' or unbalanced closing bracket.
std::size_t expression_end(std::span<const Token> tokens, std::size_t at);

}  // namespace kforecast::lint
