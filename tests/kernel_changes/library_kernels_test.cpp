// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/library_kernels.hpp"

#include <catch2/catch.hpp>

#include "support/scanned.hpp"

using namespace kforecast::kernels;
using namespace kforecast::kernel_changes;
using namespace kforecast::kernels::testing;
using Catch::Matchers::VectorContains;

namespace {

ChangeAnalysis edited(std::string_view from, std::string_view to) {
  const std::string base_text = read_fixture("library_kernel.cu");
  std::string head_text = base_text;
  const auto at = head_text.find(from);
  REQUIRE(at != std::string::npos);
  head_text.replace(at, from.size(), to);
  const SourceFiles base_files{{"ops.cu", base_text}}, head_files{{"ops.cu", head_text}};
  const RevisionSources base(base_files), head(head_files);
  return find_changed_kernels(base, head, {}, {"ops.cu"});
}

}  // namespace

TEST_CASE("kernel_changes: fixture library_kernel.cu, a library's kernel runs the project's operator()") {
  const SourceFiles files{{"ops.cu", read_fixture("library_kernel.cu")}};
  const RevisionSources sources(files);
  const auto found = library_kernels(sources);
  // Before: CUTLASS_DEVICE was not a specifier and no kernel was found at all.
  REQUIRE(found.size() == 2);
  CHECK(found[0].name() == "cutlass::device_kernel<demo::ScaleOp>");
  CHECK(found[0].body.qualified_name == "demo::ScaleOp::operator()");
  CHECK(found[0].body.line == 17);
  CHECK(found[1].name() == "cutlass::device_kernel<demo::ShiftOp>");  // through run_op<ShiftOp>
  const Function& op = sources.scanned("ops.cu").functions[found[0].body.function_index];
  CHECK(op.kind == FunctionKind::device);
  CHECK_FALSE(op.host);
  CHECK(only(sources.scanned("ops.cu"), "demo::UnlaunchedOp::operator()").host);
}

TEST_CASE("kernel_changes: a changed operator() of a launched class is a changed kernel") {
  SECTION("launched directly") {
    const auto analysis = edited("params.data[i] *= params.factor", "params.data[i] *= 2.0f * params.factor");
    REQUIRE(analysis.kernels.size() == 1);
    const ChangedKernel& kernel = analysis.kernels[0];
    CHECK(kernel.change == KernelChange::modified);
    REQUIRE(kernel.head.has_value());
    CHECK(kernel.head->qualified_name == "demo::ScaleOp::operator()");
    CHECK(kernel.base->qualified_name == "demo::ScaleOp::operator()");
    REQUIRE_FALSE(kernel.reasons.empty());
    CHECK(kernel.reasons[0] == "library kernel cutlass::device_kernel<demo::ScaleOp> runs demo::ScaleOp::operator()");
    CHECK_THAT(kernel.reasons, VectorContains(std::string("the kernel's own source changed")));
  }
  SECTION("launched through a wrapper template") {
    const auto analysis = edited("params.data[i] += params.offset", "params.data[i] -= params.offset");
    REQUIRE(analysis.kernels.size() == 1);
    CHECK(analysis.kernels[0].head->qualified_name == "demo::ShiftOp::operator()");
  }
  SECTION("never launched") { CHECK(edited("x[0] = 1.0f;", "x[0] = 2.0f;").kernels.empty()); }
  SECTION("unchanged, the host code edited") {
    CHECK(edited("void launch_all(", "static void launch_all(").kernels.empty());
  }
}

TEST_CASE("kernel_changes: a class template nested in a project kernel's template arguments is no library kernel") {
  // map_kernel<Compose<Gamma, Threshold>><<<...>>>: the `>>` that closes Compose's arguments
  // closes map_kernel's too; Compose is an argument, not what is launched.
  const std::string kernels = R"(struct Gamma { float g; __device__ float operator()(float x) const { return x * g; } };
struct Threshold { float t; __device__ float operator()(float x) const { return x > t ? 1.0f : 0.0f; } };
template <typename A, typename B> struct Compose { A a; B b; __device__ float operator()(float x) const { return b(a(x)); } };
template <typename Op> __global__ void map_kernel(float* d, Op op) { d[threadIdx.x] = op(d[threadIdx.x]); }
void run(float* d, Compose<Gamma, Threshold> op) { map_kernel<Compose<Gamma, Threshold>><<<1, 32>>>(d, op); }
)";
  const SourceFiles files{{"map.cu", kernels}};
  CHECK(library_kernels(RevisionSources(files)).empty());
  SourceFiles head_files = files;
  head_files["map.cu"].replace(head_files["map.cu"].find("x * g"), 5, "x * g * g");
  const RevisionSources base(files), head(head_files);
  const auto analysis = find_changed_kernels(base, head, {}, {"map.cu"});
  REQUIRE(analysis.kernels.size() == 1);
  CHECK(analysis.kernels[0].head->qualified_name == "map_kernel");
}
