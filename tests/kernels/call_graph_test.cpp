// SPDX-License-Identifier: Apache-2.0
#include "kernels/call_graph.hpp"

#include <set>

#include <catch2/catch.hpp>

#include "support/scanned.hpp"

using namespace kforecast::kernels;
using namespace kforecast::kernels::testing;

namespace {

std::vector<std::string> names_of(const CallGraph& graph, const std::vector<FunctionRef>& refs) {
  std::vector<std::string> names;
  for (const FunctionRef ref : refs) names.push_back(graph.function(ref).qualified_name);
  return names;
}

std::vector<std::string> macro_names(const CallGraph& graph, const std::vector<MacroRef>& refs) {
  std::vector<std::string> names;
  for (const MacroRef ref : refs) names.push_back(graph.macro(ref).name);
  return names;
}

FunctionRef one(const CallGraph& graph, std::string_view name) {
  const auto found = graph.find(name);
  REQUIRE(found.size() == 1);
  return found[0];
}

}  // namespace

TEST_CASE("kernels: reachable_from follows calls transitively and stops at cycles") {
  const auto scanned = scan_cuda_source(
      "__device__ int leaf(int x) { return x; }\n"
      "__device__ int mid(int x) { return leaf(x) + rec(x); }\n"
      "__device__ int rec(int x) { return x > 0 ? rec(x - 1) : mid(0); }\n"
      "__device__ int unused(int x) { return leaf(x); }\n"
      "__global__ void k(int* p) { p[0] = mid(p[1]); }\n"
      "__global__ void lonely(int* p) { p[0] = undefined_function(p[1]); }\n");
  const CallGraph graph(scanned);
  CHECK(names_of(graph, graph.reachable_from(one(graph, "k"))) == std::vector<std::string>{"leaf", "mid", "rec"});
  CHECK(names_of(graph, graph.reachable_from(one(graph, "leaf"))).empty());
  CHECK(names_of(graph, graph.reachable_from(one(graph, "rec"))) == std::vector<std::string>{"leaf", "mid", "rec"});
  CHECK(graph.reachable_from(one(graph, "lonely")).empty());
  const auto callees = graph.callees(one(graph, "mid"));
  CHECK(names_of(graph, {callees.begin(), callees.end()}) == std::vector<std::string>{"leaf", "rec"});
}

TEST_CASE("kernels: calls resolve to the nearest enclosing namespace first") {
  const auto scanned = scan_cuda_source(
      "__device__ float f(float x) { return x; }\n"
      "namespace a { __device__ float f(float x) { return -x; }\n"
      "  namespace b { __global__ void k(float* x) { x[0] = f(x[0]); } } }\n"
      "namespace c { __global__ void k(float* x) { x[0] = f(x[0]); } }\n"
      "namespace d { __global__ void k(float* x) { x[0] = a::f(x[0]) + ::f(x[1]); } }\n"
      "namespace e { __device__ void g(); }\n"
      "__global__ void k(float* x) { e::g(); unknown::g(); }\n");
  const CallGraph graph(scanned);
  CHECK(names_of(graph, graph.reachable_from(one(graph, "a::b::k"))) == std::vector<std::string>{"a::f"});
  CHECK(names_of(graph, graph.reachable_from(one(graph, "c::k"))) == std::vector<std::string>{"f"});
  CHECK(names_of(graph, graph.reachable_from(one(graph, "d::k"))) == std::vector<std::string>{"f", "a::f"});
  CHECK(names_of(graph, graph.reachable_from(one(graph, "k"))) == std::vector<std::string>{"e::g"});
  CHECK(graph.find("k").size() == 1);  // the qualified name wins over the plain one
  CHECK(graph.find("f").size() == 1);
  CHECK(graph.find("missing").empty());
}

TEST_CASE("kernels: macro use, directly and through macro bodies and callees") {
  const auto scanned = scan_cuda_source(
      "#define TILE 32\n#define HALF (TILE / 2)\n#define SQUARE(x) ((x) * (x))\n#define UNUSED 1\n#define OTHER HALF\n"
      "__device__ int helper(int i) { return SQUARE(i); }\n"
      "__global__ void k(int* p) { p[0] = HALF + helper(p[1]); }\n");
  const CallGraph graph(scanned);
  const FunctionRef k = one(graph, "k");
  CHECK(macro_names(graph, graph.macros_used(k, MacroReach::function_only)) ==
        std::vector<std::string>{"TILE", "HALF"});
  CHECK(macro_names(graph, graph.macros_used(k, MacroReach::with_callees)) ==
        std::vector<std::string>{"TILE", "HALF", "SQUARE"});
  CHECK(macro_names(graph, graph.macros_used(one(graph, "helper"), MacroReach::function_only)) ==
        std::vector<std::string>{"SQUARE"});
}

TEST_CASE("kernels: names resolve across several sources, a .cu file and its headers") {
  const auto header = scan_cuda_source(
      "#pragma once\n#define BLOCK 256\nnamespace util { __device__ float clamp01(float x); }\n"
      "#define STAMP(name) __global__ void name(float* x) { x[0] = util::clamp01(x[0]); }\n");
  const auto helpers =
      scan_cuda_source("namespace util { __device__ float clamp01(float x) { return x < 0 ? 0 : x; } }\n");
  const auto main_file = scan_cuda_source(
      "#include \"util.cuh\"\n__global__ void k(float* x) { x[threadIdx.x] = util::clamp01(x[BLOCK]); "
      "}\nSTAMP(stamped)\n",
      ScanOptions{header.macros});
  const std::vector<ScannedSource> sources{main_file, header, helpers};
  const CallGraph graph(sources);
  const FunctionRef k = graph.find("k").at(0);
  CHECK(k.source == 0);
  const auto reached = graph.reachable_from(k);
  REQUIRE(reached.size() == 2);  // the declaration in the header and the definition
  CHECK(reached[0] == FunctionRef{1, 0});
  CHECK(reached[1] == FunctionRef{2, 0});
  CHECK(graph.function(reached[1]).has_body);
  const auto used = graph.macros_used(k, MacroReach::with_callees);
  REQUIRE(used.size() == 1);
  CHECK(used[0] == MacroRef{1, 0});
  const FunctionRef stamped = graph.find("stamped").at(0);
  CHECK(graph.reachable_from(stamped).size() == 2);
  CHECK(macro_names(graph, graph.macros_used(stamped, MacroReach::function_only)) == std::vector<std::string>{"STAMP"});
}

TEST_CASE("kernels: a call through a template parameter or a functor parameter resolves wide") {
  const auto scanned = scan_cuda_source(
      "struct A { __device__ static int Run(int x) { return x; } };\n"
      "struct B { __device__ static int Run(int x) { return -x; } };\n"
      "struct Sq { __device__ int operator()(int x) const { return x * x; } };\n"
      "__device__ int other(int x) { return x; }\n"
      "template <class Runner, int N = 4>\n__global__ void k(int* p) { p[0] = Runner::Run(p[1]); }\n"
      "template <typename F>\n__global__ void f(int* p, F op) { p[0] = op(p[1]); }\n"
      "template <typename F>\n__global__ void g(int* p) { p[0] = F()(p[1]); }\n"
      "__global__ void plain(int* p) { p[0] = other(p[1]); }\n");
  const CallGraph graph(scanned);
  CHECK(names_of(graph, graph.reachable_from(one(graph, "k"))) == std::vector<std::string>{"A::Run", "B::Run"});
  CHECK(names_of(graph, graph.reachable_from(one(graph, "f"))) == std::vector<std::string>{"Sq::operator()"});
  CHECK(names_of(graph, graph.reachable_from(one(graph, "g"))) == std::vector<std::string>{"Sq::operator()"});
  CHECK(names_of(graph, graph.reachable_from(one(graph, "plain"))) == std::vector<std::string>{"other"});
  CHECK(graph.dispatches(one(graph, "f"), {}));
  CHECK(graph.dispatches(one(graph, "g"), {}));  // F()(x): a call on a value
  CHECK_FALSE(graph.dispatches(one(graph, "k"), {}));
  CHECK_FALSE(graph.dispatches(one(graph, "plain"), {}));
}

TEST_CASE("kernels: a view's call operator and a cast are no calls through a value") {
  // Either made a kernel reach every device function whose name any declaration mentions.
  const auto scanned = scan_cuda_source(
      "template <typename T>\n__global__ void view(View<T> out, float s) { out(threadIdx.x) = s; }\n"
      "template <typename T>\n__global__ void cast(T* out, float s) { out[0] = (T)(s * 2.0f); }\n"
      "__global__ void cast_ptr(float* out, const void* p) { out[0] = *(const float*)(p); }\n"
      "typedef float (*unary_fn)(float);\n"
      "__global__ void pointer(float* out, unary_fn fn) { out[0] = fn(out[0]); }\n"
      "__global__ void deref(float* out, unary_fn fp) { out[0] = (*fp)(out[0]); }\n"
      "__global__ void chained(float* out, int k) { out[0] = pick(k)(out[0]); }\n");
  const CallGraph graph(scanned);
  const std::set<std::string, std::less<>> classes{"View"};
  CHECK_FALSE(graph.dispatches(one(graph, "view"), classes));
  CHECK(graph.dispatches(one(graph, "view"), {}));  // a type it cannot see into may be a pointer
  CHECK_FALSE(graph.dispatches(one(graph, "cast"), classes));
  CHECK_FALSE(graph.dispatches(one(graph, "cast_ptr"), classes));
  CHECK(graph.dispatches(one(graph, "pointer"), classes));
  CHECK(graph.dispatches(one(graph, "deref"), classes));
  CHECK(graph.dispatches(one(graph, "chained"), classes));
}

TEST_CASE("kernels: a call through an alias of a class or a namespace calls the target's member") {
  const auto scanned = scan_cuda_source(
      "namespace ns { template <typename T> struct Foo { __device__ static T bar(T x); };\n"
      "  struct Plain { __device__ static int baz(int x); }; }\n"
      "template <typename T> __device__ T ns::Foo<T>::bar(T x) { return x * 2; }\n"
      "__device__ int ns::Plain::baz(int x) { return x + 1; }\n"
      "__device__ int bar(int x) { return x; }\n"
      "using Alias = ns::Foo<float>;\n"
      "typedef ns::Plain P;\n"
      "namespace n2 = ns;\n"
      "__global__ void by_using(float* x) { x[0] = Alias::bar(x[0]); }\n"
      "__global__ void by_typedef(int* x) { x[0] = P::baz(x[0]); }\n"
      "__global__ void by_namespace(int* x) { x[0] = n2::Plain::baz(x[0]); }\n"
      "__global__ void by_local(int* x) { using Q = n2::Plain; x[0] = Q::baz(x[0]); }\n"
      "__global__ void unrelated(int* x) { x[0] = bar(x[0]); }\n");
  REQUIRE(scanned.aliases.size() == 3);
  CHECK(scanned.aliases[0].name == "Alias");
  CHECK(scanned.aliases[0].target == "ns::Foo");
  CHECK(scanned.aliases[1].name == "P");
  CHECK(scanned.aliases[2].target == "ns");
  const CallGraph graph(scanned);
  // The out-of-class definition and the declaration in the class: both are ns::Foo::bar.
  const auto reached = [&](std::string_view kernel) {
    const auto names = names_of(graph, graph.reachable_from(one(graph, kernel)));
    return std::set<std::string>(names.begin(), names.end());
  };
  CHECK(reached("by_using") == std::set<std::string>{"ns::Foo::bar"});
  CHECK(reached("by_typedef") == std::set<std::string>{"ns::Plain::baz"});
  CHECK(reached("by_namespace") == std::set<std::string>{"ns::Plain::baz"});
  CHECK(reached("by_local") == std::set<std::string>{"ns::Plain::baz"});
  CHECK(reached("unrelated") == std::set<std::string>{"bar"});
}
