// SPDX-License-Identifier: Apache-2.0
// Variables by scope: declarations, their extents, and what each identifier resolves to.

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

TEST_CASE("lint variables: each block's declaration is its own variable") {
  const auto tokens = kforecast::kernels::lex("{ { int k = threadIdx.x; f(k); } { int k = n; g(k); } h(k); }");
  const BodyAnalysis analysis(tokens);
  const auto& vars = analysis.variables();
  const std::size_t first = vars.at(index_of(tokens, "k", 0)), second = vars.at(index_of(tokens, "k", 2));
  CHECK(first != second);
  CHECK(vars.at(index_of(tokens, "k", 1)) == first);
  CHECK(vars.at(index_of(tokens, "k", 3)) == second);
  CHECK(vars[vars.at(index_of(tokens, "k", 4))].free());  // out of both blocks: not declared here
  CHECK(analysis.thread_dependent(index_of(tokens, "k", 1), index_of(tokens, "k", 1) + 1));
  CHECK_FALSE(analysis.thread_dependent(index_of(tokens, "k", 3), index_of(tokens, "k", 3) + 1));
}

TEST_CASE("lint variables: for counters, comma declarators, shadowing and members") {
  const auto tokens = kforecast::kernels::lex(
      "{ for (int i = threadIdx.x, j = 0; i < n; ++i) a(i, j); for (int i = 0; i < n; ++i) b(i); "
      "float x = 1, *p = q, v[4]; { float x = p[0]; c(x); } d(x, s.x, v[2]); cg::sync(block); }");
  const BodyAnalysis analysis(tokens);
  const auto& vars = analysis.variables();
  const auto at = [&](std::string_view name, int nth) { return vars.at(index_of(tokens, name, nth)); };
  CHECK(at("i", 0) != at("i", 4));
  CHECK(analysis.thread_dependent(index_of(tokens, "i", 3), index_of(tokens, "i", 3) + 1));
  CHECK_FALSE(analysis.thread_dependent(index_of(tokens, "i", 7), index_of(tokens, "i", 7) + 1));
  CHECK_FALSE(vars[at("j", 0)].free());
  CHECK_FALSE(vars[at("p", 0)].free());
  CHECK(vars[at("v", 0)].array);
  // (the first "x" is threadIdx's member)
  CHECK(at("x", 0) == Variables::none);
  CHECK(at("x", 2) != at("x", 1));  // the inner block's x shadows the outer one
  CHECK(at("x", 3) == at("x", 2));
  CHECK(at("x", 4) == at("x", 1));
  CHECK(at("x", 5) == Variables::none);     // s.x is a member
  CHECK(at("sync", 0) == Variables::none);  // a qualified call declares nothing
  CHECK(vars.assigned(at("p", 0)).size() == 1);
  CHECK(vars.changed_in(at("i", 0), index_of(tokens, "++"), index_of(tokens, "++") + 2));
}

TEST_CASE("lint variables: CuTe's static extents, sizeof and decltype are not thread-dependent") {
  const auto tokens = kforecast::kernels::lex(
      "{ auto t = part(threadIdx.x); int nk = size<2>(t); int b = sizeof(t); int r = t.size(); "
      "int m = cute::size<1>(t) * 2; }");
  const BodyAnalysis analysis(tokens);
  const auto dependent = [&](std::string_view name) {
    const std::size_t at = index_of(tokens, name);
    return analysis.thread_dependent(at, at + 1);
  };
  CHECK(dependent("t"));
  CHECK_FALSE(dependent("nk"));
  CHECK_FALSE(dependent("b"));
  CHECK(dependent("r"));  // a member function's result may differ
  CHECK_FALSE(dependent("m"));
}
