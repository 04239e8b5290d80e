// SPDX-License-Identifier: Apache-2.0
#include "kernels/declaration.hpp"

#include <catch2/catch.hpp>

#include "kernels/lexer.hpp"

using namespace kforecast::kernels;

namespace {

std::vector<Parameter> parameters_of(std::string_view list) { return parse_parameters(lex(list)); }

}  // namespace

TEST_CASE("kernels: parameters keep their type text and name") {
  const auto p = parameters_of("const float* __restrict__ A, int n, float (*f)(int), float tile[16][17], T&& v");
  REQUIRE(p.size() == 5);
  CHECK(p[0].type == "const float* __restrict__");
  CHECK(p[0].name == "A");
  CHECK(p[1].type == "int");
  CHECK(p[1].name == "n");
  CHECK(p[2].type == "float (*)(int)");
  CHECK(p[2].name == "f");
  CHECK(p[3].type == "float[16][17]");
  CHECK(p[3].name == "tile");
  CHECK(p[4].type == "T&&");
  CHECK(p[4].name == "v");
}

TEST_CASE("kernels: unnamed parameters, default values, templates and packs") {
  const auto p = parameters_of(
      "float*, const float* __restrict__, unsigned int, Tensor<float, 2> t = {}, int k = a < b, Ts... rest");
  REQUIRE(p.size() == 6);
  CHECK(p[0].type == "float*");
  CHECK(p[0].name.empty());
  CHECK(p[1].type == "const float* __restrict__");
  CHECK(p[1].name.empty());
  CHECK(p[2].type == "unsigned int");
  CHECK(p[2].name.empty());
  CHECK(p[3].type == "Tensor<float, 2>");  // the comma inside <> does not split
  CHECK(p[3].name == "t");
  CHECK(p[3].default_value == "{}");
  CHECK(p[4].name == "k");
  CHECK(p[4].default_value == "a < b");
  CHECK(p[5].type == "Ts...");
  CHECK(p[5].name == "rest");
  CHECK(parameters_of("void").empty());
  CHECK(parameters_of("").empty());
  REQUIRE(parameters_of("T").size() == 1);
  CHECK(parameters_of("T")[0].name.empty());  // one word is a type, not a name
}

TEST_CASE("kernels: the function head is the name before the first parameter list") {
  const auto tokens = lex("__global__ void __launch_bounds__(256, 2) [[nodiscard]] ns::S<T>::k<64>(float* x) const");
  const auto head = find_function_head(tokens, 1);
  REQUIRE(head.has_value());
  CHECK(declarator_name(tokens, *head) == "ns::S::k");
  CHECK(tokens[head->params_open].text() == "(");
  CHECK(tokens[head->params_open + 1].text() == "float");
  CHECK(tokens[head->params_close].text() == ")");
  CHECK(launch_bounds_of(tokens) == "256, 2");

  const auto op = lex("__device__ float operator()(float x)");
  const auto op_head = find_function_head(op, 1);
  REQUIRE(op_head.has_value());
  CHECK(declarator_name(op, *op_head) == "operator()");
  CHECK(op[op_head->params_open + 1].text() == "float");

  CHECK_FALSE(find_function_head(lex("__device__ int x = f(3)"), 1).has_value());  // a variable
  CHECK_FALSE(find_function_head(lex("__device__ void (*fp)"), 1).has_value());    // no name before (
  CHECK(launch_bounds_of(lex("__global__ void k()")).empty());
}

TEST_CASE("kernels: template headers are skipped as a whole") {
  const auto tokens = lex("template <int N = (4 > 2), typename T> template <class U> __device__ void f()");
  CHECK(tokens[skip_template_headers(tokens, 0)].text() == "__device__");
  const auto plain = lex("__device__ void f()");
  CHECK(skip_template_headers(plain, 0) == 0);
}

TEST_CASE("kernels: an attribute macro before the return type is not the function's name") {
  for (const std::string_view text :
       {"__global__ BOUNDS(256) void k(float* x)", "__global__ BOUNDS(256, 2) const float* k(float* x)",
        "__global__ ATTR_A(1) ATTR_B(x, y) unsigned long long k(float* x)",
        "__global__ static __launch_bounds__(64) void k(float* x)", "__global__ __attribute__((noinline)) void k()",
        "__global__ BOUNDS(256) ns::Result<int> k()", "__global__ BOUNDS(256) void k() const"}) {
    CAPTURE(text);
    const auto tokens = lex(text);
    const auto head = find_function_head(tokens, 1);
    REQUIRE(head.has_value());
    CHECK(declarator_name(tokens, *head) == "k");
  }
  // A name whose parameter list is followed by what may follow one stays the name.
  for (const std::string_view text :
       {"__device__ void k(float* x) const noexcept", "__device__ auto k(int x) -> int",
        "__device__ void k(int x) __attribute__((noinline))", "__device__ void k(int x) override final",
        "__device__ void k(int x) requires true", "__device__ void k(int x) &&", "__device__ void k(int x)"}) {
    CAPTURE(text);
    const auto tokens = lex(text);
    const auto head = find_function_head(tokens, 1);
    REQUIRE(head.has_value());
    CHECK(declarator_name(tokens, *head) == "k");
  }
}
