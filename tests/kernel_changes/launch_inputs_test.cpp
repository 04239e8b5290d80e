// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/launch_inputs.hpp"

#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "kernel_changes/changed_kernels.hpp"
#include "support/scanned.hpp"

using namespace kforecast::kernels;
using namespace kforecast::kernel_changes;
using namespace kforecast::kernels::testing;

namespace {

SourceFiles runner_files() {
  return {{"src/runner.cu", read_fixture("launch_inputs_base.cu")},
          {"src/launch_inputs_kernels.cuh", read_fixture("launch_inputs_kernels.cuh")}};
}

std::string replaced(std::string_view text, std::string_view from, std::string_view to) {
  std::string out(text);
  const auto at = out.find(from);
  const bool found = at != std::string::npos;
  REQUIRE(found);
  return out.replace(at, from.size(), to);
}

// The changed kernels, "name file:line: reason | reason", of editing one file of the runner.
std::vector<std::string> after_edit(const std::string& path, std::string_view from, std::string_view to) {
  const SourceFiles base_files = runner_files();
  SourceFiles head_files = base_files;
  head_files[path] = replaced(head_files[path], from, to);
  const RevisionSources base(base_files), head(head_files);
  const auto analysis = find_changed_kernels(base, head, {}, {path});
  std::vector<std::string> out;
  for (const auto& kernel : analysis.kernels) {
    std::string line = fmt::format("{} {}:{}:", kernel.head->qualified_name, kernel.head->file, kernel.head->line);
    for (const auto& reason : kernel.reasons) line += " " + reason + " |";
    out.push_back(line);
  }
  return out;
}

}  // namespace

TEST_CASE("kernel_changes: fixture launch_inputs, a launch's template argument whose value changed") {
  // SGEMM_CUDA's tuning commits (c09b35070029, 1d2038c7b4c3) change `const uint K10_BK = 8;`
  // to 16 and nothing else: another instantiation runs, and the kernel in the header is reported
  // at its definition, the reason naming the launch.
  CHECK(after_edit("src/runner.cu", "const uint BK = 8;", "const uint BK = 16;") ==
        std::vector<std::string>{"tiled_gemm src/launch_inputs_kernels.cuh:7: launch template argument BK "
                                 "changed (src/runner.cu:14) |"});
  // BN sizes the grid too: one reason, for the template argument that names it.
  CHECK(after_edit("src/runner.cu", "const uint BN = 64;", "const uint BN = 128;") ==
        std::vector<std::string>{"tiled_gemm src/launch_inputs_kernels.cuh:7: launch template argument BN "
                                 "changed (src/runner.cu:14) |"});
}

TEST_CASE("kernel_changes: fixture launch_inputs, a launch configuration sized by a changed constant") {
  CHECK(after_edit("src/runner.cu", "const int rows_per_block = 4;", "const int rows_per_block = 8;") ==
        std::vector<std::string>{"row_norm src/launch_inputs_kernels.cuh:24: launch configuration argument blocks "
                                 "changed through rows_per_block (src/runner.cu:21) |"});
  CHECK(after_edit("src/runner.cu", "#define NORM_THREADS 128", "#define NORM_THREADS 256") ==
        std::vector<std::string>{"row_norm src/launch_inputs_kernels.cuh:24: launch configuration argument "
                                 "NORM_THREADS changed (src/runner.cu:21) |"});
  // A constant of an included header, the runner untouched.
  CHECK(after_edit("src/launch_inputs_kernels.cuh", "constexpr int kScaleThreads = 256;",
                   "constexpr int kScaleThreads = 512;") ==
        std::vector<std::string>{"scale src/launch_inputs_kernels.cuh:28: launch configuration argument "
                                 "kScaleThreads changed (src/runner.cu:27) |"});
}

TEST_CASE("kernel_changes: fixture launch_inputs, what a launch does not name is no change to it") {
  // Another function's BK, a comment, the definition's layout.
  CHECK(after_edit("src/runner.cu", "const uint BK = 32;", "const uint BK = 64;").empty());
  CHECK(after_edit("src/runner.cu", "const uint BK = 8;", "const uint BK = 8;  // tuned").empty());
  CHECK(after_edit("src/runner.cu", "const uint BM = 64;", "const uint BM =\n      64;").empty());
}

TEST_CASE("kernel_changes: a launch's inputs are followed a few steps deep, and no further") {
  std::string chain = "void run(float* x) {\n  const int a0 = 1;\n";
  for (int i = 1; i < 200; ++i) chain += fmt::format("  const int a{} = a{} + 1;\n", i, i - 1);
  chain += "  k<<<a199, 1>>>(x);\n}\n";
  const SourceFiles base_files{{"run.cu", "__global__ void k(float* x) { x[0] = 1; }\n" + chain}};
  SourceFiles head_files = base_files;
  head_files["run.cu"] = replaced(head_files["run.cu"], "a198 + 1", "a198 + 2");
  const RevisionSources base(base_files), head(head_files);
  CHECK(changed_launch_inputs(base, "run.cu", head, "run.cu").size() == 1);
  head_files["run.cu"] = replaced(base_files.at("run.cu"), "a0 = 1", "a0 = 2");
  const RevisionSources far(head_files);
  CHECK(changed_launch_inputs(base, "run.cu", far, "run.cu").empty());
}

TEST_CASE("kernel_changes: launch inputs of broken input end") {
  for (std::string_view junk :
       {"k<<<a, b>>>(", "void f() { k<T><<<g, b>>>(x); ", "} } k<<<{, (>>>;", "void f() { const int = ; k<<<, >>>(); }",
        "#define A A\nvoid f() { k<<<A, A>>>(); }"}) {
    INFO(junk);
    const SourceFiles files{{"j.cu", std::string(junk)}};
    const RevisionSources sources(files);
    CHECK_NOTHROW(changed_launch_inputs(sources, "j.cu", sources, "j.cu"));
  }
}

TEST_CASE("kernel_changes: a launch input declared beside another, and a macro's parameters") {
  const SourceFiles base_files{{"run.cu",
                                "#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))\n"
                                "template <int BM, int BN> __global__ void k(float* x) { x[0] = BM * BN; }\n"
                                "void run(float* x, int n) {\n  const int a = 3;\n  const int BM = 64, BN = 64;\n"
                                "  k<BM, BN><<<CEIL_DIV(n, BN), 128>>>(x);\n}\n"}};
  const auto inputs = [&](std::string_view from, std::string_view to) {
    SourceFiles head_files = base_files;
    head_files["run.cu"] = replaced(head_files["run.cu"], from, to);
    const RevisionSources base(base_files), head(head_files);
    std::vector<std::string> reasons;
    for (const auto& change : changed_launch_inputs(base, "run.cu", head, "run.cu")) reasons.push_back(change.reason);
    return reasons;
  };
  CHECK(inputs("BN = 64;", "BN = 128;") == std::vector<std::string>{"launch template argument BM changed (run.cu:6)",
                                                                    "launch template argument BN changed (run.cu:6)"});
  CHECK(inputs("const int a = 3;", "const int a = 4;").empty());  // CEIL_DIV's `a` is its own
}

TEST_CASE("kernel_changes: a launching function's parameter shadows a header's constant of its name") {
  const SourceFiles base_files{{"run.cu",
                                "#include \"sizes.h\"\n__global__ void k(float* x) { x[0] = 1; }\n"
                                "void run(float* x, int threads = 128) {\n  k<<<1, threads>>>(x);\n}\n"},
                               {"sizes.h", "constexpr int threads = 256;\n"}};
  SourceFiles head_files = base_files;
  head_files["sizes.h"] = "constexpr int threads = 512;\n";
  const RevisionSources base(base_files), head(head_files);
  CHECK(changed_launch_inputs(base, "run.cu", head, "run.cu").empty());
  head_files = base_files;
  head_files["run.cu"] = replaced(base_files.at("run.cu"), "int threads = 128", "int threads = 64");
  const RevisionSources new_default(head_files);
  const auto changes = changed_launch_inputs(base, "run.cu", new_default, "run.cu");
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].reason == "launch configuration argument threads changed (run.cu:4)");
}

TEST_CASE("kernel_changes: fixture launch_inputs, a macro defined again alike in a new header is no change") {
  // SGEMM_CUDA de3c245a8242: a new kernel header defines CEIL_DIV as the runner does; the
  // runner's launches read the same macro and are not reported.
  CHECK(after_edit("src/launch_inputs_kernels.cuh", "#pragma once",
                   "#pragma once\n#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))")
            .empty());
  // Defined otherwise, it is a change to every launch that uses it.
  CHECK_FALSE(after_edit("src/launch_inputs_kernels.cuh", "#pragma once",
                         "#pragma once\n#define CEIL_DIV(a, b) ((a) / (b))")
                  .empty());
}

TEST_CASE("kernel_changes: a launch input that names a struct is not changed by the struct's layout") {
  // llm.c's shape: `int layers = model->config.layers;` sizes the grid, and a host struct the
  // model type holds gains a field; the value launched is the same.
  const std::string kernel = "__global__ void cast(float* p) { p[threadIdx.x] = 0; }\n";
  const std::string runner = "void run(Model* model, float* p) {\n  int layers = model->layers;\n"
                             "  cast<<<dim3(4, layers), 32>>>(p);\n}\n";
  const SourceFiles base_files{{"run.cu", kernel + "struct Model { int layers; };\n" + runner}};
  const SourceFiles head_files{{"run.cu", kernel + "struct Model { int layers; float scale; };\n" + runner}};
  const RevisionSources base(base_files), head(head_files);
  CHECK(find_changed_kernels(base, head, {}, {"run.cu"}).kernels.empty());
  // The same through llm.c's `typedef struct { ... } GPT2;`.
  const SourceFiles typedef_base{{"run.cu", kernel + "typedef struct { int layers; } Model;\n" + runner}};
  const SourceFiles typedef_head{{"run.cu", kernel + "typedef struct { int layers; float scale; } Model;\n" + runner}};
  const RevisionSources base2(typedef_base), head2(typedef_head);
  CHECK(find_changed_kernels(base2, head2, {}, {"run.cu"}).kernels.empty());
}

TEST_CASE("kernel_changes: fixture launch_inputs, a reformatted macro or definition a launch names is no change") {
  // clang-format writes `(b)-1` and realigns a continued macro's backslashes; re-wraps a local.
  CHECK(after_edit("src/runner.cu", "#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))",
                   "#define CEIL_DIV(a, b) \\\n    (((a) + (b)-1) / (b))")
            .empty());
  CHECK(after_edit("src/runner.cu", "dim3 block((BM * BN) / 16);", "dim3 block((BM*BN)/\n      16);").empty());
  CHECK(after_edit("src/runner.cu", "const uint BK = 8;", "uint const BK = 8;").empty());
  // A value that changed in the same edit still does.
  CHECK(after_edit("src/runner.cu", "dim3 block((BM * BN) / 16);", "dim3 block((BM*BN)/\n      32);").size() == 1);
}
