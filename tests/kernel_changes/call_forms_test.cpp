// SPDX-License-Identifier: Apache-2.0
// fixtures/call_forms: each folder a small project at two revisions (base/, head/) in one of the
// shapes real code reaches or launches its kernels through. Each change must be found at the
// kernel it changes, and at no other.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include <catch2/catch.hpp>

#include "kernel_changes/changed_kernels.hpp"

using namespace kforecast::kernels;
using namespace kforecast::kernel_changes;
namespace fs = std::filesystem;

namespace {

const fs::path fixtures = fs::path(KF_SOURCE_DIR) / "fixtures" / "call_forms";

SourceFiles read_project(const std::string& name, const std::string& side) {
  SourceFiles files;
  const fs::path root = fixtures / name / side;
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[fs::relative(entry.path(), root).generic_string()] = {std::istreambuf_iterator<char>(in), {}};
  }
  REQUIRE_FALSE(files.empty());
  return files;
}

ChangeAnalysis analyse(const SourceFiles& base_files, const SourceFiles& head_files) {
  std::set<std::string, std::less<>> touched;
  for (const auto* files : {&base_files, &head_files})
    for (const auto& [path, text] : *files) {
      const SourceFiles& other = files == &base_files ? head_files : base_files;
      if (!other.contains(path) || other.at(path) != text) touched.insert(path);
    }
  const RevisionSources base(base_files), head(head_files);
  return find_changed_kernels(base, head, {}, touched);
}

// "name: reason | reason", one per changed kernel, sorted.
std::vector<std::string> changes(const ChangeAnalysis& analysis) {
  std::vector<std::string> out;
  for (const auto& kernel : analysis.kernels) {
    std::string line = (kernel.head ? kernel.head->qualified_name : kernel.base->qualified_name) + ":";
    for (const auto& reason : kernel.reasons) line += (line.ends_with(":") ? " " : " | ") + reason;
    out.push_back(line);
  }
  std::ranges::sort(out);
  return out;
}

std::vector<std::string> changes(const std::string& name) {
  return changes(analyse(read_project(name, "base"), read_project(name, "head")));
}

// The base with one edit in one file.
std::vector<std::string> after_edit(const std::string& name, const std::string& path, std::string_view from,
                                    std::string_view to) {
  const SourceFiles base = read_project(name, "base");
  SourceFiles head = base;
  const auto at = head.at(path).find(from);
  REQUIRE(at != std::string::npos);
  head.at(path).replace(at, from.size(), to);
  return changes(analyse(base, head));
}

}  // namespace

TEST_CASE("kernel_changes: fixture generic_lambda, template arguments given to a generic lambda that launches") {
  // gsplat's RasterizeContributingLaunch shape: `launch_variant.template operator()<16, 64>()`
  // became <16, 256>; the launch inside the lambda reads the same.
  CHECK(changes("generic_lambda") ==
        std::vector<std::string>{"contributing_kernel: launch template argument CTA_SIZE changed in the calls of "
                                 "launch_variant.template operator() (src/launch.cu:17)"});
  // The other call's arguments, and the kernel launched outside the lambda, are another matter.
  CHECK(after_edit("generic_lambda", "src/launch.cu", "operator()<4, 16>", "operator()<8, 16>") ==
        std::vector<std::string>{"contributing_kernel: launch template argument TILE_SIZE changed in the calls of "
                                 "launch_variant.template operator() (src/launch.cu:17)"});
  CHECK(after_edit("generic_lambda", "src/launch.cu", "return CountAccumulator{counts};",
                   "return CountAccumulator{counts + 1};")
            .empty());
}

TEST_CASE(
    "kernel_changes: fixture host_template_args, template arguments changed at the launch or at a host template's "
    "call") {
  CHECK(changes("host_template_args") ==
        std::vector<std::string>{"sgemm_tiled: launch configuration at src/runner.cu:9 changed"});
  CHECK(changes("host_wrapper_args") ==
        std::vector<std::string>{"sgemm_tiled: launch template argument BK changed in the calls of run_tall "
                                 "(src/runner.cu:15)"});
  // A constant the call names, followed from the template parameter to its definition.
  CHECK(after_edit("host_wrapper_args", "src/runner.cu", "constexpr int kTileN = 32;", "constexpr int kTileN = 16;")
            .size() == 1);
}

TEST_CASE("kernel_changes: fixture member_alias, members defined outside their class and called through aliases") {
  // using FloatSampler = tex::Bilinear<float>; FloatSampler::sample(...) with the definition
  // `template <typename T> __device__ T tex::Bilinear<T>::sample(...) { ... }` after the class.
  CHECK(changes("member_alias") ==
        std::vector<std::string>{"resize_bilinear: device function tex::Bilinear::sample changed"});
  // A local alias of a namespace alias's class: using N = t::Nearest; N::index(...).
  CHECK(after_edit("member_alias", "src/sampler.cuh",
                   "return static_cast<int>(y + 0.5f) * width + static_cast<int>(x + 0.5f);",
                   "return static_cast<int>(y) * width + static_cast<int>(x);") ==
        std::vector<std::string>{"resize_nearest: device function tex::Nearest::index changed",
                                 "resize_nearest_index: device function tex::Nearest::index changed"});
}

TEST_CASE("kernel_changes: fixture template_struct, a kernel instantiated with a struct that changed") {
  CHECK(changes("template_struct") ==
        std::vector<std::string>{"scale_kernel: launch template argument ForwardParams changed (src/apply.cu:29)"});
  // Deduced from the argument's type: scale_grad_kernel<<<...>>>(params), params a BackwardParams.
  CHECK(after_edit("template_struct", "src/params.h", "  float* dx;\n  int n;\n  float scale;",
                   "  float* dx;\n  int n;\n  double scale;") ==
        std::vector<std::string>{"scale_grad_kernel: launch template argument deduced from params changed through "
                                 "BackwardParams (src/apply.cu:34)"});
}

TEST_CASE("kernel_changes: fixture pointer_launch, a kernel launched through a local that holds it") {
  // flash-attention's `auto kernel = &flash_fwd_kernel<...>; kernel<<<...>>>(params);`
  CHECK(changes("pointer_launch") ==
        std::vector<std::string>{"attn_fwd_kernel: launch configuration at src/attention.cuh:40 changed (launched "
                                 "through kernel)"});
  CHECK(after_edit("pointer_launch", "src/attention.cuh", "attn_fwd_kernel<BLOCK_M, false, true>;",
                   "attn_fwd_kernel<BLOCK_M, false, false>;") ==
        std::vector<std::string>{"attn_fwd_kernel: launch configuration at src/attention.cuh:43 changed (launched "
                                 "through kernel)"});
}

TEST_CASE("kernel_changes: fixture launch_api, kernels launched through the runtime's functions and a wrapper macro") {
  CHECK(changes("launch_api") ==
        std::vector<std::string>{
            "combine_kernel: launch configuration argument config changed (src/exchange.cu:41)",
            "notify_kernel: launch configuration argument cfg changed through kNumThreads (src/exchange.cu:27)",
            "reduce_kernel: launch configuration at src/exchange.cu:46 changed (launched through cudaLaunchKernel)"});
  CHECK(after_edit("launch_api", "src/exchange.cu", "combine_kernel<4>", "combine_kernel<8>") ==
        std::vector<std::string>{"combine_kernel: launch configuration at src/exchange.cu:41 changed (launched "
                                 "through cudaLaunchKernelEx)"});
  // The wrapper's own configuration macro.
  CHECK(after_edit("launch_api", "src/launch.cuh", "attr[0].val.cooperative = 1;", "attr[0].val.cooperative = 0;") ==
        std::vector<std::string>{"notify_kernel: launch configuration argument cfg changed through "
                                 "SETUP_LAUNCH_CONFIG (src/exchange.cu:27)"});
}

TEST_CASE("kernel_changes: fixture macro_kernels, kernels a macro writes are named so, with what settles them") {
  const auto analysis = analyse(read_project("macro_kernels", "base"), read_project("macro_kernels", "head"));
  const std::string settle =
      "written by macro DEFINE_REDUCE_KERNEL (src/kernel_macros.cuh): compiling the units "
      "that expand it settles whether its code changed";
  CHECK(changes(analysis) == std::vector<std::string>{"max_f32: macro DEFINE_REDUCE_KERNEL changed | " + settle,
                                                      "sum_f32: macro DEFINE_REDUCE_KERNEL changed | " + settle});
  for (const ChangedKernel& kernel : analysis.kernels) {
    REQUIRE(kernel.produced_by);
    CHECK(kernel.produced_by->kind == KernelOrigin::Kind::macro);
    CHECK(kernel.produced_by->name == "DEFINE_REDUCE_KERNEL");
  }
  // A body written after a macro that writes only the signature.
  CHECK(after_edit("macro_kernels", "src/forward.cu", "acc += params.x[j] * Traits::kScale;",
                   "acc += params.x[j] * Traits::kScale * 0.5f;") ==
        std::vector<std::string>{"fwd_kernel: device function compute_row changed | written by macro "
                                 "DEFINE_FWD_KERNEL (src/kernel_macros.cuh): compiling the units that expand it "
                                 "settles whether its code changed"});
}

TEST_CASE("kernel_changes: fixture generated, a generated file added or removed instantiates a kernel anew") {
  const auto analysis = analyse(read_project("generated", "base"), read_project("generated", "head"));
  CHECK(changes(analysis) ==
        std::vector<std::string>{"fwd_kernel: instantiated by generated file src/instantiations/fwd_hdim96_fp32.cu "
                                 "(added) | generated (src/instantiations/fwd_hdim96_fp32.cu, by generate_kernels.py): "
                                 "compiling the units that instantiate it settles whether its code changed"});
  REQUIRE(analysis.kernels.size() == 1);
  REQUIRE(analysis.kernels[0].produced_by);
  CHECK(analysis.kernels[0].produced_by->kind == KernelOrigin::Kind::generator);
  CHECK(analysis.kernels[0].produced_by->name == "generate_kernels.py");
  SourceFiles without = read_project("generated", "base");
  without.erase("src/instantiations/fwd_hdim128_fp32.cu");
  const auto removed = changes(analyse(read_project("generated", "base"), without));
  REQUIRE(removed.size() == 1);
  CHECK(
      removed[0].starts_with("fwd_kernel: instantiated by generated file src/instantiations/fwd_hdim128_fp32.cu "
                             "(removed)"));
  // flash-attention's split files: an explicit instantiation, no function of their own.
  SourceFiles split = read_project("generated", "base");
  split["src/instantiations/fwd_hdim32_fp32_split.cu"] =
      "// This file is auto-generated. See \"generate_kernels.py\"\n#include \"../fwd_launch.h\"\n"
      "template void run_fwd_hdim<float, 32>(FwdParams& params, cudaStream_t stream);\n";
  const auto instantiated = changes(analyse(read_project("generated", "base"), split));
  REQUIRE(instantiated.size() == 1);
  CHECK(
      instantiated[0].starts_with("fwd_kernel: instantiated by generated file "
                                  "src/instantiations/fwd_hdim32_fp32_split.cu (added)"));
  // A hand-written file of the same shape says nothing of a generator: no kernel changed.
  SourceFiles hand_written = read_project("generated", "head");
  std::string& added = hand_written.at("src/instantiations/fwd_hdim96_fp32.cu");
  added.erase(added.find("// This file"),
              std::string_view("// This file is auto-generated. See \"generate_kernels.py\"\n").size());
  CHECK(changes(analyse(read_project("generated", "base"), hand_written)).empty());
}
