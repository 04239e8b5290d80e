// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "kernels/lexer.hpp"
#include "lint/body_analysis.hpp"

using namespace kforecast::lint;

namespace {
std::size_t index_of(std::span<const Token> tokens, std::string_view text, int nth = 0) {
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i].text() == text && nth-- == 0) return i;
  FAIL("no token " << text);
  return 0;
}
}  // namespace

TEST_CASE("lint: thread dependence follows assignments from threadIdx") {
  const auto tokens = kforecast::kernels::lex(
      "{ int tid = threadIdx.x; int row = blockIdx.y * 4 + threadIdx.y; int i = tid * 2; int b = blockIdx.x;"
      " float acc = 0; acc += x[i]; }");
  const BodyAnalysis analysis(tokens);
  CHECK(analysis.lane_dependent_at(index_of(tokens, "tid")));
  CHECK(analysis.lane_dependent_at(index_of(tokens, "i")));
  CHECK_FALSE(analysis.lane_dependent_at(index_of(tokens, "row")));
  CHECK(analysis.thread_dependent(index_of(tokens, "row"), index_of(tokens, "row") + 1));
  CHECK_FALSE(analysis.thread_dependent(index_of(tokens, "b"), index_of(tokens, "b") + 1));
  CHECK(analysis.thread_dependent(index_of(tokens, "acc"), index_of(tokens, "acc") + 1));
}

TEST_CASE("lint: branches and loops with their extents") {
  const auto tokens = kforecast::kernels::lex(
      "{ if (threadIdx.x < 4) { a(); } else b(); if (n) c(); for (int i = 0; i < n; ++i) d(); "
      "do { e(); } while (x); if (threadIdx.x == 0) f(); }");
  const BodyAnalysis analysis(tokens);
  CHECK(analysis.in_divergent_branch(index_of(tokens, "a")));
  CHECK(analysis.in_divergent_branch(index_of(tokens, "b")));
  CHECK_FALSE(analysis.in_divergent_branch(index_of(tokens, "c")));
  CHECK(analysis.in_loop(index_of(tokens, "d")));
  CHECK(analysis.in_loop(index_of(tokens, "e")));
  CHECK_FALSE(analysis.in_loop(index_of(tokens, "c")));
  CHECK(analysis.in_elected_branch(index_of(tokens, "f")));
  CHECK_FALSE(analysis.in_elected_branch(index_of(tokens, "a")));
}

TEST_CASE("lint: hostile nesting does not exhaust the stack") {
  std::string text = "{";
  for (int i = 0; i < 3000; ++i) text += "if (threadIdx.x) ";
  text += "__syncthreads(); }";
  const auto tokens = kforecast::kernels::lex(text);
  const BodyAnalysis analysis(tokens);
  CHECK(analysis.in_divergent_branch(index_of(tokens, "__syncthreads")));
}

TEST_CASE("lint: a grid-stride loop macro is a loop") {
  const auto tokens = kforecast::kernels::lex("{ CUDA_1D_KERNEL_LOOP(i, n) { a(i); } b(); NOT_A_LOOP_X(c); }");
  const BodyAnalysis analysis(tokens);
  CHECK(analysis.in_loop(index_of(tokens, "a")));
  CHECK_FALSE(analysis.in_loop(index_of(tokens, "b")));
  CHECK_FALSE(analysis.in_loop(index_of(tokens, "c")));
}
