// SPDX-License-Identifier: Apache-2.0
// Removed and added kernels paired as one kernel moved: through find_changed_kernels on the
// fixture pairs fixtures/cuda/NAME_base.cu and NAME_head.cu, and through pair_removed_with_added.

#include "kernel_changes/kernel_pairing.hpp"

#include <catch2/catch.hpp>

#include "support/scanned.hpp"

using namespace kforecast::kernels;
using namespace kforecast::kernel_changes;
using namespace kforecast::kernels::testing;
using Catch::Matchers::VectorContains;

namespace {

ChangeAnalysis changes(const SourceFiles& base_files, const SourceFiles& head_files) {
  std::set<std::string, std::less<>> touched;
  for (const auto& [path, text] : base_files) touched.insert(path);
  for (const auto& [path, text] : head_files) touched.insert(path);
  const RevisionSources base(base_files), head(head_files);
  return find_changed_kernels(base, head, {}, touched);
}

std::vector<std::string> names(const ChangeAnalysis& analysis) {
  std::vector<std::string> out;
  for (const auto& kernel : analysis.kernels)
    out.push_back(std::string(to_string(kernel.change)) + " " +
                  (kernel.head ? kernel.head->qualified_name : kernel.base->qualified_name));
  std::sort(out.begin(), out.end());
  return out;
}

const ChangedKernel& named(const ChangeAnalysis& analysis, std::string_view head_name) {
  for (const auto& kernel : analysis.kernels)
    if (kernel.head && kernel.head->qualified_name == head_name) return kernel;
  FAIL("no changed kernel " << head_name);
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("kernel_changes: fixture namespace_wrap_base.cu to _head.cu, kernels moved into a namespace stay") {
  const SourceFiles base{{"ops.cu", read_fixture("namespace_wrap_base.cu")}};
  const SourceFiles head{{"ops.cu", read_fixture("namespace_wrap_head.cu")}};
  const auto analysis = changes(base, head);
  // Before: three kernels added under ops:: and three removed, two of them "renamed".
  REQUIRE(names(analysis) == std::vector<std::string>{"modified ops::scale_rows"});
  const ChangedKernel& edited = named(analysis, "ops::scale_rows");
  REQUIRE(edited.base.has_value());
  CHECK(edited.base->qualified_name == "scale_rows");
  CHECK_THAT(edited.reasons, VectorContains(std::string("the kernel's own source changed")));
  CHECK_THAT(edited.reasons, VectorContains(std::string("qualified name changed from scale_rows")));
  // sum_squares reaches square, now ops::square with the same tokens: no change.
  CHECK(analysis.comment_only == std::vector<std::string>{"ops.cu: ops::fill_value"});
}

TEST_CASE("kernel_changes: fixture rename_edit_base.cu to _head.cu, kernels renamed and edited are modified") {
  const SourceFiles base{{"norm.cu", read_fixture("rename_edit_base.cu")}};
  const SourceFiles head{{"norm.cu", read_fixture("rename_edit_head.cu")}};
  const auto analysis = changes(base, head);
  // Before: every kernel was added or removed, with no forecast.
  REQUIRE(names(analysis) == std::vector<std::string>{"added prefix_sum", "modified layernorm_forward",
                                                      "modified transpose_smem", "removed old_histogram"});
  const ChangedKernel& norm = named(analysis, "layernorm_forward");
  REQUIRE(norm.base.has_value());
  CHECK(norm.base->qualified_name == "layer_norm_fwd");
  REQUIRE_FALSE(norm.reasons.empty());
  CHECK(norm.reasons.front() == "renamed from layer_norm_fwd");
  CHECK_THAT(norm.reasons, VectorContains(std::string("the kernel's own source changed")));
  CHECK(named(analysis, "transpose_smem").base->qualified_name == "transpose_tile");
}

TEST_CASE("kernel_changes: pairing is one to one, by name, then by identical code, then by the most similar code") {
  const std::string body = "{ for (int i = 0; i < n; ++i) out[i] = in[i] * 2.0f + bias[i % 8]; }";
  const SourceFiles base{
      {"b.cu", "__global__ void k(const float* in, float* out, float* bias, int n) " + body},
      {"a.cu", "__global__ void k(const float* in, float* out, float* bias, int n) " + body +
                   "\n__global__ void twin(const float* in, float* out, float* bias, int n) " + body + "\n"}};
  const SourceFiles head{
      {"a.cu", "namespace v2 {\n__global__ void k(const float* in, float* out, float* bias, int n) " + body +
                   "\n}\n__global__ void twin_renamed(const float* in, float* out, float* bias, int n) " + body +
                   "\n__global__ void unrelated(int* p) { atomicAdd(p, 1); }\n"}};
  const RevisionSources base_sources(base), head_sources(head);
  const auto site = [](const RevisionSources& sources, std::string_view name) {
    const auto& functions = sources.scanned("a.cu").functions;
    for (std::size_t i = 0; i < functions.size(); ++i)
      if (functions[i].qualified_name == name) return KernelSite{"a.cu", functions[i].qualified_name, 0, i};
    FAIL("no kernel " << name);
    return KernelSite{};
  };
  const std::vector<KernelSite> removed{site(base_sources, "k"), site(base_sources, "twin")};
  const std::vector<KernelSite> added{site(head_sources, "unrelated"), site(head_sources, "twin_renamed"),
                                      site(head_sources, "v2::k")};
  const auto pairs = pair_removed_with_added(base_sources, removed, head_sources, added, {});
  REQUIRE(pairs.size() == 2);
  CHECK(pairs[0].removed == 0);
  CHECK(pairs[0].added == 2);
  CHECK(pairs[0].by == PairedBy::qualification);
  CHECK(pairs[1].removed == 1);
  CHECK(pairs[1].added == 1);
  CHECK(pairs[1].by == PairedBy::identical_code);

  SECTION("files apart are never paired") {
    const std::vector<KernelSite> elsewhere{{"b.cu", "k", 0, 0}};
    CHECK(pair_removed_with_added(base_sources, elsewhere, head_sources, added, {}).empty());
  }
}
