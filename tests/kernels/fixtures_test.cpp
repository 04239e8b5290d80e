// SPDX-License-Identifier: Apache-2.0
// The sample sources in fixtures/cuda, scanned whole: what a reader of each file would list.

#include <catch2/catch.hpp>

#include "kernels/call_graph.hpp"
#include "kernels/fingerprint.hpp"
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

}  // namespace

TEST_CASE("kernels: fixture sgemm_tiled.cu, a tiled SGEMM with a helper two calls deep") {
  const std::string source = read_fixture("sgemm_tiled.cu");
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) ==
        std::vector<std::string>{"guarded_load", "load_tile", "unused_helper", "sgemm_tiled"});
  const Function& k = only(scanned, "sgemm_tiled");
  CHECK(k.kind == FunctionKind::global);
  CHECK(k.launch_bounds == "TILE * TILE, 2");
  CHECK(k.signature.first_line == 21);
  CHECK(k.signature.last_line == 23);
  CHECK(k.body.first_line == 23);
  CHECK(k.body.last_line == 38);
  REQUIRE(k.parameters.size() == 8);
  CHECK(k.parameters[0].type == "int");
  CHECK(k.parameters[0].name == "M");
  CHECK(k.parameters[4].type == "const float* __restrict__");
  CHECK(k.parameters[4].name == "A");
  CHECK(k.parameters[7].type == "float* __restrict__");
  CHECK(k.parameters[7].name == "C");
  CHECK(k.calls == std::vector<std::string_view>{"CEIL_DIV", "__syncthreads", "load_tile"});

  const Function& load_tile = only(scanned, "load_tile");
  REQUIRE(load_tile.parameters.size() == 6);
  CHECK(load_tile.parameters[0].type == "float (*)[TILE + 1]");
  CHECK(load_tile.parameters[0].name == "tile");
  CHECK(only(scanned, "guarded_load").body.first_line == 11);
  CHECK(only(scanned, "guarded_load").body.last_line == 13);

  const CallGraph graph(scanned);
  const FunctionRef kernel = graph.find("sgemm_tiled").at(0);
  CHECK(names_of(graph, graph.reachable_from(kernel)) == std::vector<std::string>{"guarded_load", "load_tile"});
  CHECK(macro_names(graph, graph.macros_used(kernel, MacroReach::function_only)) ==
        std::vector<std::string>{"TILE", "CEIL_DIV"});
  CHECK(macro_names(graph, graph.macros_used(kernel, MacroReach::with_callees)) ==
        std::vector<std::string>{"TILE", "CEIL_DIV", "CLAMP_INDEX"});

  REQUIRE(scanned.includes.size() == 2);
  CHECK(scanned.includes[0].path == "cuda_runtime.h");
  CHECK(scanned.includes[0].angled);
  CHECK(scanned.includes[1].path == "common/check.cuh");
  CHECK(scanned.includes[1].line == 4);
  REQUIRE(scanned.macros.size() == 3);
  CHECK(scanned.macros[1].name == "CEIL_DIV");
  CHECK(scanned.macros[1].parameters == std::vector<std::string>{"a", "b"});
  CHECK(scanned.macros[1].span.first_line == 7);
}

TEST_CASE("kernels: fixture templates.cu, template kernels and their explicit instantiations") {
  const std::string source = read_fixture("templates.cu");  // outlives the views the scan returns
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) == std::vector<std::string>{"warp_sum", "reduce_rows", "fill"});
  const Function& reduce = only(scanned, "reduce_rows");
  CHECK(reduce.template_parameters == "template <int BLOCK, typename T = float>");
  CHECK(reduce.instantiations == std::vector<std::string>{"reduce_rows<128, float>", "reduce_rows<256, double>"});
  REQUIRE(reduce.parameters.size() == 4);
  CHECK(reduce.parameters[3].name == "init");
  CHECK(reduce.parameters[3].default_value == "T(0)");
  CHECK(reduce.calls == std::vector<std::string_view>{"warp_sum"});
  CHECK(only(scanned, "fill").instantiations == std::vector<std::string>{"fill(float*, float)", "fill<int, 4>"});
  CHECK(only(scanned, "warp_sum").template_parameters == "template <typename T>");
  CHECK(only(scanned, "warp_sum").instantiations.empty());
  CHECK(scanned.instantiations.size() == 4);
}

TEST_CASE("kernels: fixture macro_kernels.cu, kernels stamped out by a macro") {
  const std::string source = read_fixture("macro_kernels.cu");
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) ==
        std::vector<std::string>{"scaled", "scale_kernel", "negate_kernel", "plain_kernel"});
  CHECK(only(scanned, "scaled").kind == FunctionKind::device);  // through DEVICE_INLINE
  const Function& scale = only(scanned, "scale_kernel");
  CHECK(scale.from_macro);
  CHECK(scale.macro == "DEFINE_UNARY_KERNEL");
  CHECK(scale.whole.first_line == 14);
  CHECK(scale.calls == std::vector<std::string_view>{"scaled"});
  CHECK(only(scanned, "negate_kernel").calls.empty());  // '-' is not a name
  CHECK(only(scanned, "negate_kernel").whole.first_line == 15);
  const Macro& macro = scanned.macros.at(2);
  CHECK(macro.name == "DEFINE_UNARY_KERNEL");
  CHECK(macro.span.first_line == 8);
  CHECK(macro.span.last_line == 12);  // four continuation lines

  const CallGraph graph(scanned);
  const FunctionRef kernel = graph.find("scale_kernel").at(0);
  CHECK(names_of(graph, graph.reachable_from(kernel)) == std::vector<std::string>{"scaled"});
  CHECK(macro_names(graph, graph.macros_used(kernel, MacroReach::with_callees)) ==
        std::vector<std::string>{"DEVICE_INLINE", "SCALE", "DEFINE_UNARY_KERNEL"});
}

TEST_CASE("kernels: fixture extern_c.cu, extern C blocks, namespaces and attributes") {
  const std::string source = read_fixture("extern_c.cu");  // outlives the views the scan returns
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) == std::vector<std::string>{"c_add", "c_declared", "c_single", "outer::inner::square",
                                                             "outer::inner::nested_kernel", "outer::hidden",
                                                             "outer::both", "outer::attributed", "a::b::deep"});
  CHECK(only(scanned, "c_add").extern_c);
  CHECK(only(scanned, "c_declared").extern_c);
  CHECK_FALSE(only(scanned, "c_declared").has_body);
  CHECK(only(scanned, "c_single").extern_c);
  CHECK_FALSE(only(scanned, "outer::both").extern_c);
  CHECK(only(scanned, "outer::both").host);
  CHECK_FALSE(only(scanned, "outer::attributed").has_body);
  const Function& deep = only(scanned, "a::b::deep");
  REQUIRE(deep.parameters.size() == 2);
  CHECK(deep.parameters[0].type == "outer::inner::Unknown*");
  CHECK(deep.parameters[0].default_value == "nullptr");
  CHECK(deep.parameters[1].default_value == "4");
  const CallGraph graph(scanned);
  CHECK(names_of(graph, graph.reachable_from(graph.find("a::b::deep").at(0))) ==
        std::vector<std::string>{"outer::hidden", "outer::both"});
  CHECK(names_of(graph, graph.reachable_from(graph.find("outer::inner::nested_kernel").at(0))) ==
        std::vector<std::string>{"outer::inner::square"});
  REQUIRE(scanned.namespaces.size() == 3);
  CHECK(scanned.namespaces[1].qualified_name == "outer");
  CHECK(scanned.namespaces[1].span.first_line == 15);
  CHECK(scanned.namespaces[1].span.last_line == 32);
}

TEST_CASE("kernels: fixture attribute_macros.cu, attributes between __global__ and the return type") {
  const std::string source = read_fixture("attribute_macros.cu");
  const auto scanned = scan_cuda_source(source);
  // The attribute macro was taken for the name: every kernel behind it was called KF_BOUNDS.
  CHECK(qualified_names(scanned) == std::vector<std::string>{"add_bias", "relu_inplace", "zero_fill", "static_square",
                                                             "widen", "block_sum", "no_inline_copy"});
  for (const Function& f : scanned.functions) {
    CAPTURE(f.name);
    CHECK(f.kind == FunctionKind::global);
    CHECK(f.has_body);
    CHECK_FALSE(f.parameters.empty());
  }
  CHECK(only(scanned, "add_bias").parameters.size() == 3);
  CHECK(only(scanned, "zero_fill").parameters[1].name == "n");
  CHECK(only(scanned, "static_square").launch_bounds == "64");
  CHECK(only(scanned, "widen").template_parameters == "template <typename T, int Width>");
  CHECK(only(scanned, "block_sum").body.first_line == 30);
  CHECK(only(scanned, "no_inline_copy").parameters[1].name == "src");
}

TEST_CASE("kernels: fixture macro_signatures.cu, a macro writes the signature, the body follows") {
  const std::string source = read_fixture("macro_signatures.cu");
  const auto scanned = scan_cuda_source(source);
  // The body after the invocation was walked as declarations, and the kernel had none.
  CHECK(qualified_names(scanned) == std::vector<std::string>{"fwd_f32", "fwd_f64", "inc_a", "inc_b", "plain_after"});
  const Function& f32 = only(scanned, "fwd_f32");
  CHECK(f32.kind == FunctionKind::global);
  CHECK(f32.from_macro);
  CHECK(f32.macro == "DEFINE_FWD_KERNEL");
  CHECK(f32.has_body);
  CHECK(f32.body.first_line == 7);
  CHECK(f32.body.last_line == 10);
  CHECK(f32.whole.first_line == 7);
  CHECK(text_of(source, f32.signature) == "DEFINE_FWD_KERNEL(fwd_f32, float)");
  REQUIRE(f32.parameters.size() == 2);
  CHECK(f32.parameters[0].type == "float*");
  CHECK(f32.parameters[1].name == "n");
  CHECK(contains(f32.referenced_identifiers, "DEFINE_FWD_KERNEL"));
  CHECK(contains(f32.referenced_identifiers, "blockIdx"));
  const Function& f64 = only(scanned, "fwd_f64");
  CHECK(f64.parameters[0].type == "double*");
  CHECK(f64.calls == std::vector<std::string_view>{"clamp_unit"});
  CHECK(only(scanned, "inc_a").from_macro);
  CHECK(only(scanned, "inc_b").has_body);
  CHECK(only(scanned, "plain_after").body.first_line == 19);
}

TEST_CASE("kernels: fixture tricky.cu, kernels in comments, strings and #if 0 are not found") {
  // #if 0 is honoured: in_if_zero is not found, the #else branch is. Other conditions keep
  // every branch, so both EXP macros are listed.
  const std::string source = read_fixture("tricky.cu");  // outlives the views the scan returns
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) == std::vector<std::string>{"in_else_of_if_zero", "after_all_that"});
  const Function& after = only(scanned, "after_all_that");
  CHECK(after.signature.first_line == 35);
  CHECK(after.body.last_line == 43);
  CHECK(after.calls == std::vector<std::string_view>{"EXP", "LONG_MACRO"});
  CHECK(contains(after.referenced_identifiers, "USE_FAST_MATH"));
  REQUIRE(scanned.macros.size() == 3);
  CHECK(scanned.macros[2].name == "LONG_MACRO");
  CHECK(scanned.macros[2].span.first_line == 30);
  CHECK(scanned.macros[2].span.last_line == 33);
  CHECK(scanned.macros[2].body == "do { (x) += 1; } while (0)");
  const CallGraph graph(scanned);
  CHECK(macro_names(graph, graph.macros_used(graph.find("after_all_that").at(0), MacroReach::function_only)) ==
        std::vector<std::string>{"EXP", "EXP", "LONG_MACRO"});
}

TEST_CASE("kernels: fixture crlf.cu, Windows line endings") {
  const std::string source = read_fixture("crlf.cu");
  REQUIRE(source.find("\r\n") != std::string::npos);
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) == std::vector<std::string>{"twice", "crlf_kernel"});
  CHECK(only(scanned, "crlf_kernel").body.first_line == 10);
  CHECK(only(scanned, "crlf_kernel").body.last_line == 12);
  REQUIRE(scanned.macros.size() == 1);
  CHECK(scanned.macros[0].body == "64");
  CHECK(scanned.macros[0].span.last_line == 4);
  const CallGraph graph(scanned);
  CHECK(names_of(graph, graph.reachable_from(graph.find("crlf_kernel").at(0))) == std::vector<std::string>{"twice"});
}

TEST_CASE("kernels: fixture broken.cu, code that does not compile still gives what it can") {
  const std::string source = read_fixture("broken.cu");
  const auto scanned = scan_cuda_source(source);
  CHECK(qualified_names(scanned) ==
        std::vector<std::string>{"helper", "after_unclosed", "after_stray", "message", "last_one", "never_closed"});
  // The unclosed body of helper ends where the next kernel begins.
  CHECK(only(scanned, "helper").body.last_line == 5);
  CHECK(only(scanned, "after_unclosed").signature.first_line == 8);
  CHECK(only(scanned, "after_unclosed").calls == std::vector<std::string_view>{"helper"});
  CHECK(only(scanned, "last_one").body.first_line == 19);
  // The last body never closes: it runs to the end of the file.
  CHECK(only(scanned, "never_closed").body.last_line == 22);
}

TEST_CASE("kernels: fixture fingerprints see through comment-only edits") {
  const std::string source = read_fixture("sgemm_tiled.cu");
  const auto before = scan_cuda_source(source);
  std::string commented = source;
  commented.insert(commented.find("  float acc = 0.0f;"), "  // accumulate in a register\n");
  std::string changed = source;
  changed.replace(changed.find("++k"), 3, "k += 2");
  const auto after_comment = scan_cuda_source(commented);
  const auto after_change = scan_cuda_source(changed);
  const Function& a = only(before, "sgemm_tiled");
  const Function& b = only(after_comment, "sgemm_tiled");
  const Function& c = only(after_change, "sgemm_tiled");
  CHECK(b.body.last_line == a.body.last_line + 1);
  CHECK(token_fingerprint(commented, b.whole) == token_fingerprint(source, a.whole));
  CHECK(token_fingerprint(changed, c.whole) != token_fingerprint(source, a.whole));
  // The helpers did not change in either edit.
  CHECK(token_fingerprint(changed, only(after_change, "load_tile").whole) ==
        token_fingerprint(source, only(before, "load_tile").whole));
}
