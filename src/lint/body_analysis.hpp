// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the structural matchers need to know about a function body, found from its tokens: which
// variables differ between the threads of a block (derived from threadIdx), which differ between
// neighbouring threads of a warp (derived from threadIdx.x), and the branches and loops with
// their extents. It is a token-level approximation, not a compiler's data flow: a variable
// (by scope, variables.hpp) is thread-dependent when an assignment to it reads threadIdx,
// a cooperative group's thread_rank() or another thread-dependent variable. What the compiler
// knows before run time is never thread-dependent: sizeof, decltype, and CuTe's static extents
// (size<2>(tCrA) of a thread's partition is the same number in every thread).

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "kernels/token.hpp"
#include "lint/variables.hpp"

namespace kforecast::lint {

using kernels::Token;

struct ControlRegion {
  enum class Kind { branch, loop };
  Kind kind = Kind::branch;
  std::size_t header_begin = 0, header_end = 0;  // the condition's tokens (for a loop, the whole header)
  std::size_t begin = 0, end = 0;                // the controlled statement's tokens
  bool thread_dependent = false;                 // the condition differs between threads of a block
  bool elects = false;                           // ... and tests equality or negation: few threads pass
  bool else_branch = false;                      // the else of an if (header: the if's condition)
};

class BodyAnalysis {
 public:
  // `body` is a function body's tokens, braces included. `asserted` are names the file's
  // static_asserts mention: a loop whose bound is one of them and whose step is a compile-time
  // constant runs the same number of times in every thread (the assertion pins the bound to the
  // tiling: for (col = lane; col < COLS; col += STRIDE) with static_assert(COLS % 32 == 0)).
  explicit BodyAnalysis(std::span<const Token> body, std::span<const std::string_view> asserted = {});

  std::span<const Token> tokens() const { return m_tokens; }
  const std::vector<ControlRegion>& regions() const { return m_regions; }
  const Variables& variables() const { return m_variables; }

  // Whether the tokens [begin, end) read threadIdx or a variable derived from it.
  bool thread_dependent(std::size_t begin, std::size_t end) const;
  // Whether they read threadIdx.x or a variable derived from it: neighbouring lanes differ.
  bool lane_dependent(std::size_t begin, std::size_t end) const;
  // Whether the identifier at token `at` names a variable derived from threadIdx.x.
  bool lane_dependent_at(std::size_t at) const;
  // Whether it names a variable that steps with threadIdx.x, lane by lane: derived from it other
  // than only through a division or right shift (threadIdx.x / 32 or tid >> 2 is the same for a
  // group of neighbouring lanes, so it is not the fastest-varying index of an address).
  bool lane_stepping_at(std::size_t at) const;
  // Whether token `at` lies in a branch or loop whose condition is thread-dependent.
  bool in_divergent_branch(std::size_t at) const;
  // The outermost such region around token `at`; nullptr where there is none.
  const ControlRegion* outermost_divergent(std::size_t at) const;
  // Whether token `at` lies in a branch that elects one thread or lane by a thread-dependent
  // equality or negation (if (threadIdx.x == 0), if (lane == 0), if (!tid)).
  bool in_elected_branch(std::size_t at) const;
  // Whether token `at` lies in the body of a loop; the innermost such loop, or nullptr.
  bool in_loop(std::size_t at) const { return innermost_loop(at) != nullptr; }
  // Whether tokens `a` and `b` never run in the same pass: the if and the else of one branch, or
  // two case labels of one switch (fall-through aside).
  bool exclusive(std::size_t a, std::size_t b) const;
  const ControlRegion* innermost_loop(std::size_t at) const;

 private:
  void derive_thread_dependence();
  bool reads(std::size_t begin, std::size_t end, const std::vector<bool>& names, bool lane_only,
             std::size_t except = Variables::none) const;
  bool lane_stepping(std::size_t begin, std::size_t end) const;
  bool loop_thread_dependent(std::size_t begin, std::size_t end) const;
  void mark_divergent_regions();
  std::size_t statement_end(std::size_t at, int depth) const;

  std::span<const Token> m_tokens;
  std::span<const std::string_view> m_asserted;
  std::vector<ControlRegion> m_regions;  // extents first (the variables' scopes need them)
  Variables m_variables;
  std::vector<bool> m_thread;    // per variable: derived from any threadIdx component
  std::vector<bool> m_lane;      // ... from threadIdx.x
  std::vector<bool> m_stepping;  // ... and stepping with it (lane_stepping_at)
};

// The index of the token closing the bracket at `open` ((, [ or {), or tokens.size().
std::size_t closing(std::span<const Token> tokens, std::size_t open);
// The end of the expression starting at `at`: the first ',' ';' or unbalanced closing bracket.
std::size_t expression_end(std::span<const Token> tokens, std::size_t at);

}  // namespace kforecast::lint
