// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/changed_kernels.hpp"

#include <catch2/catch.hpp>

#include "support/scanned.hpp"

using namespace kforecast::kernels;
using namespace kforecast::kernel_changes;
using Catch::Matchers::VectorContains;

namespace {

constexpr std::string_view gemm = R"(#include "common.cuh"
#define TILE 16
struct Params { int n; float alpha; };
__constant__ float table[4] = {1, 2, 3, 4};
__device__ float leaf(float x) { return x * table[1]; }
__device__ float middle(float x) { return leaf(x) + 1.0f; }
// Scales by alpha.
__global__ void scale(float* a, Params p) {
  int i = blockIdx.x * TILE + threadIdx.x;
  if (i < p.n) a[i] = middle(a[i]) * p.alpha;
}
__global__ void copy(float* dst, const float* src) { dst[threadIdx.x] = src[threadIdx.x]; }
void launch(float* a, Params p) { scale<<<1, TILE>>>(a, p); }
)";

constexpr std::string_view common = R"(#pragma once
__device__ inline float twice(float x) { return 2.0f * x; }
)";

constexpr std::string_view softmax = R"(#include "common.cuh"
__global__ void softmax(float* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }
)";

SourceFiles base_files() {
  return {{"src/gemm.cu", std::string(gemm)},
          {"src/common.cuh", std::string(common)},
          {"src/softmax.cu", std::string(softmax)}};
}

std::string replaced(std::string_view text, std::string_view from, std::string_view to) {
  std::string out(text);
  const auto at = out.find(from);
  REQUIRE(at != std::string::npos);
  return out.replace(at, from.size(), to);
}

struct Outcome {
  ChangeAnalysis analysis;
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& kernel : analysis.kernels)
      out.push_back(std::string(to_string(kernel.change)) + " " +
                    (kernel.head ? kernel.head->qualified_name : kernel.base->qualified_name));
    std::sort(out.begin(), out.end());
    return out;
  }
  const ChangedKernel& only() const {
    REQUIRE(analysis.kernels.size() == 1);
    return analysis.kernels.front();
  }
};

Outcome analyse(const SourceFiles& base_files_, const SourceFiles& head_files_, std::vector<FileRename> renames = {}) {
  std::set<std::string, std::less<>> touched;
  for (const auto& files : {&base_files_, &head_files_})
    for (const auto& [path, text] : *files) {
      const auto other = (files == &base_files_ ? head_files_ : base_files_).find(path);
      if (other == (files == &base_files_ ? head_files_ : base_files_).end() || other->second != text)
        touched.insert(path);
    }
  for (const auto& rename : renames) touched.insert({rename.old_path, rename.new_path});
  const RevisionSources base(base_files_), head(head_files_);
  return {find_changed_kernels(base, head, renames, touched)};
}

Outcome edit(const std::string& path, std::string_view from, std::string_view to) {
  SourceFiles head = base_files();
  head[path] = replaced(head[path], from, to);
  return analyse(base_files(), head);
}

}  // namespace

TEST_CASE("kernel_changes: no change, no changed kernel") {
  auto outcome = analyse(base_files(), base_files());
  CHECK(outcome.analysis.kernels.empty());
  CHECK(outcome.analysis.comment_only.empty());
}

TEST_CASE("kernel_changes: comments and whitespace are not changes") {
  auto outcome = edit("src/gemm.cu", "// Scales by alpha.\n__global__ void scale(float* a, Params p) {",
                      "// Scales by alpha, reformatted.\n__global__ void scale(float* a,\n    Params p)\n{");
  CHECK(outcome.analysis.kernels.empty());
  CHECK(outcome.analysis.comment_only == std::vector<std::string>{"src/gemm.cu: scale"});
}

TEST_CASE("kernel_changes: a file saved with bare CR line ends keeps its kernels") {
  // A `//` comment ran to the next LF, which such a file never has: every kernel after it was
  // reported removed.
  const SourceFiles base{{"k.cu",
                          "// scale\n__global__ void k(float* a) {\n  a[0] = 1.0f;\n}\n"
                          "__global__ void j(float* a) { a[1] = 1.0f; }\n"}};
  const SourceFiles head{{"k.cu",
                          "// scale\r__global__ void k(float* a) {\r  a[0] = 3.0f; // write\r}\r"
                          "__global__ void j(float* a) { a[1] = 1.0f; }\r"}};
  auto outcome = analyse(base, head);
  REQUIRE(outcome.analysis.kernels.size() == 1);
  CHECK(outcome.only().head.has_value());
  CHECK(outcome.only().base.has_value());
  CHECK(outcome.only().head->qualified_name == "k");
  CHECK(outcome.only().head->line == 2);
}

TEST_CASE("kernel_changes: an edit to the second of two same-named kernels is that kernel's change") {
  // vLLM's shape: a vectorised kernel and its fallback share a name, chosen by enable_if. Keyed
  // by name alone only the first was compared, and an edit to the fallback passed as no change.
  const auto file = [](std::string_view fallback_body) {
    return "#include <type_traits>\n"
           "template <typename T, int W>\n"
           "__global__ std::enable_if_t<(W > 0)> norm(T* y, const T* x) { y[threadIdx.x] = x[threadIdx.x] * W; }\n"
           "template <typename T, int W>\n"
           "__global__ std::enable_if_t<(W == 0)> norm(T* y, const T* x) { " +
           std::string(fallback_body) + " }\n";
  };
  const SourceFiles base{{"norm.cu", file("y[threadIdx.x] = x[threadIdx.x];")}};
  auto outcome = analyse(base, {{"norm.cu", file("y[threadIdx.x] = 2 * x[threadIdx.x];")}});
  REQUIRE(outcome.analysis.kernels.size() == 1);
  CHECK(outcome.only().change == KernelChange::modified);
  CHECK(outcome.only().head->qualified_name == "norm");
  CHECK(outcome.only().head->line == 4);  // the fallback's template line, not the first definition's
  // Neither edited: nothing changed, however many share the name.
  CHECK(analyse(base, base).analysis.kernels.empty());
}

TEST_CASE("kernel_changes: a call through a class template's member reaches it, beside a free function of that name") {
  // vLLM's attention shape: the kernel calls Dot<T, G>::dot(q, k), a static member that calls
  // dot_; the namespace also has a free dot. The call bound to the free dot alone, so an edit in
  // dot_ was no change to the kernel.
  const auto header = [](std::string_view accumulate) {
    return "#pragma once\nnamespace ns {\n"
           "__device__ float dot(float a, float b) { return a * b; }\n"
           "template <int G> __device__ float dot_(const float* q, const float* k) { return " +
           std::string(accumulate) + "; }\n"
           "template <typename T, int G> struct Dot {\n"
           "  static __device__ float dot(const float* q, const float* k) { return dot_<G>(q, k); }\n"
           "};\n}  // namespace ns\n";
  };
  const std::string kernel = "#include \"dot.cuh\"\nnamespace ns {\n"
                             "template <typename T, int G> __global__ void attend(float* out, const float* q, const float* k) {\n"
                             "  out[threadIdx.x] = Dot<T, G>::dot(q, k);\n}\n}  // namespace ns\n";
  const SourceFiles base{{"dot.cuh", header("q[0] * k[0]")}, {"attend.cu", kernel}};
  auto outcome = analyse(base, {{"dot.cuh", header("2 * q[0] * k[0]")}, {"attend.cu", kernel}});
  CHECK(outcome.names() == std::vector<std::string>{"modified ns::attend"});
  CHECK_THAT(outcome.only().reasons, VectorContains(std::string("device function ns::dot_ changed")));
}

TEST_CASE("kernel_changes: a change two calls deep changes the kernel, and only it") {
  auto outcome = edit("src/gemm.cu", "x * table[1]", "x * table[2]");
  CHECK(outcome.names() == std::vector<std::string>{"modified scale"});
  CHECK_THAT(outcome.only().reasons, VectorContains(std::string("device function leaf changed")));
  CHECK(outcome.only().head->line == 8);
}

TEST_CASE("kernel_changes: macros, constants and types the kernel uses") {
  SECTION("a macro") {
    auto outcome = edit("src/gemm.cu", "#define TILE 16", "#define TILE 32");
    CHECK(outcome.names() == std::vector<std::string>{"modified scale"});
    CHECK_THAT(outcome.only().reasons, VectorContains(std::string("macro TILE changed")));
  }
  SECTION("a __constant__ table's values") {
    auto outcome = edit("src/gemm.cu", "{1, 2, 3, 4}", "{1, 5, 3, 4}");
    CHECK(outcome.names() == std::vector<std::string>{"modified scale"});
    CHECK_THAT(outcome.only().reasons, VectorContains(std::string("declaration table changed")));
  }
  SECTION("a struct it takes") {
    auto outcome = edit("src/gemm.cu", "int n; float alpha;", "long n; float alpha;");
    CHECK(outcome.names() == std::vector<std::string>{"modified scale"});
    CHECK_THAT(outcome.only().reasons, VectorContains(std::string("declaration Params changed")));
  }
}

TEST_CASE("kernel_changes: host code alone changes no kernel, unless a launch configuration changed") {
  auto outcome =
      edit("src/gemm.cu", "scale<<<1, TILE>>>(a, p);", "Params q = p;\n  scale<<<1,TILE>>>(a, q); /* more */");
  CHECK(outcome.analysis.kernels.empty());
  auto launch = edit("src/gemm.cu", "scale<<<1, TILE>>>(a, p);", "scale<<<4, TILE>>>(a, p);");
  CHECK(launch.names() == std::vector<std::string>{"modified scale"});
  CHECK(launch.only().reasons == std::vector<std::string>{"launch configuration at src/gemm.cu:13 changed"});
  auto edited = base_files();
  edited["src/gemm.cu"] = replaced(replaced(gemm, "scale<<<1, TILE>>>(a, p);", "scale<<<4, TILE>>>(a, p);"),
                                   "* p.alpha", "* p.alpha * 2.0f");
  auto kernel_and_launch = analyse(base_files(), edited);
  CHECK(kernel_and_launch.names() == std::vector<std::string>{"modified scale"});
  CHECK_THAT(kernel_and_launch.only().reasons,
             VectorContains(std::string("launch configuration at src/gemm.cu:13 changed")));
  CHECK_THAT(kernel_and_launch.only().reasons, VectorContains(std::string("the kernel's own source changed")));
}

TEST_CASE("kernel_changes: a shared header's change reaches kernels in every file that includes it") {
  auto outcome = edit("src/common.cuh", "2.0f * x", "x + x");
  CHECK(outcome.names() == std::vector<std::string>{"modified softmax"});  // scale does not call twice
  auto macro_in_header = edit("src/common.cuh", "#pragma once", "#pragma once\n#define TILE 64");
  CHECK(macro_in_header.names() == std::vector<std::string>{"modified scale"});
}

TEST_CASE("kernel_changes: added, removed and renamed kernels") {
  SECTION("added") {
    auto outcome = edit("src/softmax.cu", "__global__ void softmax",
                        "__global__ void fresh(int* p) { *p = 1; }\n__global__ void softmax");
    CHECK(outcome.names() == std::vector<std::string>{"added fresh"});
    CHECK_FALSE(outcome.only().base.has_value());
  }
  SECTION("removed") {
    auto outcome =
        edit("src/gemm.cu",
             "__global__ void copy(float* dst, const float* src) { dst[threadIdx.x] = src[threadIdx.x]; }", "");
    CHECK(outcome.names() == std::vector<std::string>{"removed copy"});
    CHECK_FALSE(outcome.only().head.has_value());
  }
  SECTION("renamed, same code") {
    auto outcome = edit("src/gemm.cu", "void copy(", "void copy_rows(");
    CHECK(outcome.names() == std::vector<std::string>{"renamed copy_rows"});
    CHECK(outcome.only().base->qualified_name == "copy");
    CHECK_THAT(outcome.only().reasons, VectorContains(std::string("renamed from copy")));
  }
  SECTION("renamed with a small edit is a modification") {
    // Was an addition and a removal: a renamed and edited kernel got no forecast.
    auto outcome = edit("src/gemm.cu", "void copy(float* dst, const float* src) { dst[threadIdx.x]",
                        "void copy_rows(float* dst, const float* src) { dst[threadIdx.x + 1]");
    CHECK(outcome.names() == std::vector<std::string>{"modified copy_rows"});
    CHECK(outcome.only().base->qualified_name == "copy");
    CHECK_THAT(outcome.only().reasons, VectorContains(std::string("renamed from copy")));
  }
  SECTION("renamed with a new body is a removal and an addition") {
    auto outcome =
        edit("src/gemm.cu", "void copy(float* dst, const float* src) { dst[threadIdx.x] = src[threadIdx.x]; }",
             "void copy_rows(float* dst, const float* src) { if (blockIdx.x == 0) atomicAdd(dst, *src); }");
    CHECK(outcome.names() == std::vector<std::string>{"added copy_rows", "removed copy"});
  }
}

TEST_CASE("kernel_changes: a renamed file with unchanged kernels changes nothing") {
  SourceFiles head = base_files();
  head["src/softmax_kernels.cu"] = head["src/softmax.cu"];
  head.erase("src/softmax.cu");
  auto outcome = analyse(base_files(), head, {{"src/softmax.cu", "src/softmax_kernels.cu"}});
  CHECK(outcome.analysis.kernels.empty());
}

TEST_CASE("kernel_changes: a template kernel and a kernel in an included .cuh") {
  SourceFiles base{{"k.cuh", "template <int N>\n__global__ void tiled(float* a) { a[threadIdx.x] *= N; }\n"},
                   {"k.cu", "#include \"k.cuh\"\ntemplate __global__ void tiled<64>(float*);\n"}};
  SourceFiles head = base;
  head["k.cuh"] = replaced(head["k.cuh"], "*= N", "+= N");
  auto outcome = analyse(base, head);
  CHECK(outcome.names() == std::vector<std::string>{"modified tiled"});
  CHECK(outcome.only().head->file == "k.cuh");
}

TEST_CASE("kernel_changes: the reasons of one named pair, across files and names") {
  SourceFiles base = base_files();
  SourceFiles head = base_files();
  head["old/gemm_v1.cu"] = replaced(gemm, "x * table[1]", "x * table[2]");
  const RevisionSources base_sources(base), head_sources(head);
  const auto site = [](const RevisionSources& sources, const std::string& path, std::string_view name) {
    const auto& functions = sources.scanned(path).functions;
    for (std::size_t i = 0; i < functions.size(); ++i)
      if (functions[i].qualified_name == name) return KernelSite{path, functions[i].qualified_name, 0, i};
    FAIL("no kernel " << name);
    return KernelSite{};
  };
  SECTION("the same kernel read the same: no reasons") {
    CHECK(kernel_change_reasons(base_sources, site(base_sources, "src/gemm.cu", "scale"), head_sources,
                                site(head_sources, "src/gemm.cu", "scale"))
              .empty());
  }
  SECTION("another file whose device function differs") {
    const auto reasons = kernel_change_reasons(base_sources, site(base_sources, "src/gemm.cu", "scale"), head_sources,
                                               site(head_sources, "old/gemm_v1.cu", "scale"));
    CHECK_THAT(reasons, VectorContains(std::string("device function leaf changed")));
  }
  SECTION("another kernel altogether") {
    CHECK_FALSE(kernel_change_reasons(base_sources, site(base_sources, "src/gemm.cu", "scale"), head_sources,
                                      site(head_sources, "src/gemm.cu", "copy"))
                    .empty());
  }
}

TEST_CASE("kernel_changes: revision sources made from bare-CR files survive a move") {
  // pr scans the base on another thread and moves the result out of the future.
  const SourceFiles files{{"k.cu", "// c\r__global__ void k(float* a) { a[0] = 1.0f; }\r"}};
  RevisionSources first(files);
  const RevisionSources moved(std::move(first));
  REQUIRE(moved.files().at("k.cu").find('\r') == std::string::npos);
  CHECK(moved.scanned("k.cu").functions.size() == 1);
}

TEST_CASE("kernel_changes: kernels a macro defines change with the macro") {
  constexpr std::string_view stamped = R"(#define KERNEL(name) __global__ void name(float* p) { p[0] = 1; }
#define DEFINE_FWD_KERNEL(name, T) __global__ void name(T* x, int n)
KERNEL(a) KERNEL(b)
DEFINE_FWD_KERNEL(fwd_f32, float) {
  if (threadIdx.x < n) x[threadIdx.x] *= 2.0f;
}
DEFINE_FWD_KERNEL(fwd_f64, double) {
  if (threadIdx.x < n) x[threadIdx.x] *= 2.0;
}
)";
  const SourceFiles base{{"k.cu", std::string(stamped)}};
  SECTION("the whole-kernel macro's body") {
    const SourceFiles head{{"k.cu", replaced(stamped, "p[0] = 1;", "p[0] = 2;")}};
    auto outcome = analyse(base, head);
    REQUIRE(outcome.names() == std::vector<std::string>{"modified a", "modified b"});
    CHECK_THAT(outcome.analysis.kernels[0].reasons, VectorContains(std::string("macro KERNEL changed")));
  }
  SECTION("the signature macro") {
    const SourceFiles head{{"k.cu", replaced(stamped, "T* x, int n)", "T* __restrict__ x, int n)")}};
    auto outcome = analyse(base, head);
    CHECK(outcome.names() == std::vector<std::string>{"modified fwd_f32", "modified fwd_f64"});
  }
  SECTION("the body after one invocation") {
    const SourceFiles head{{"k.cu", replaced(stamped, "*= 2.0f;", "*= 3.0f;")}};
    auto outcome = analyse(base, head);
    CHECK(outcome.names() == std::vector<std::string>{"modified fwd_f32"});
    CHECK_THAT(outcome.only().reasons, VectorContains(std::string("the kernel's own source changed")));
  }
  SECTION("the macro in an included header") {
    const std::string header = "#pragma once\n#define DEFINE_FWD_KERNEL(name, T) __global__ void name(T* x, int n)\n";
    const std::string user =
        "#include \"fwd.cuh\"\nDEFINE_FWD_KERNEL(fwd_f32, float) { x[0] = 1.0f; }\n"
        "DEFINE_FWD_KERNEL(fwd_f16, half) { x[0] = 1.0f; }\n";
    const SourceFiles with_header{{"fwd.cuh", header}, {"fwd.cu", user}};
    const SourceFiles edited{{"fwd.cuh", replaced(header, "int n)", "long n)")}, {"fwd.cu", user}};
    auto outcome = analyse(with_header, edited);
    REQUIRE(outcome.names() == std::vector<std::string>{"modified fwd_f16", "modified fwd_f32"});
    CHECK_THAT(outcome.analysis.kernels[0].reasons, VectorContains(std::string("macro DEFINE_FWD_KERNEL changed")));
  }
}

TEST_CASE("kernel_changes: a member function the kernel never calls is no change to a class it names") {
  constexpr std::string_view ops = R"(struct Op {
  float scale;
  __device__ float apply(float x) const { return x * scale; }
  __device__ float unused(float x) const { return x + scale; }
};
__global__ void k(float* x, Op op) { x[0] = op.apply(x[0]); }
)";
  const SourceFiles base{{"k.cu", std::string(ops)}};
  CHECK(analyse(base, {{"k.cu", replaced(ops, "x + scale", "x - scale")}}).analysis.kernels.empty());
  auto called = analyse(base, {{"k.cu", replaced(ops, "x * scale", "x / scale")}});
  CHECK(called.names() == std::vector<std::string>{"modified k"});
  auto field = analyse(base, {{"k.cu", replaced(ops, "float scale;", "double scale;")}});
  CHECK(field.names() == std::vector<std::string>{"modified k"});
}

TEST_CASE("kernel_changes: a changed enum in a shared header changes only the kernels that name it") {
  // The shape of tiny-cuda-nn's Activation: one enumerator added to a header that every file
  // includes reported every kernel of every file. Only those whose code, device functions or
  // the declarations they name (a struct's field) name the enum changed.
  SourceFiles base;
  for (std::string_view file : {"common.h", "activation.cuh", "activate.cu", "encodings.cu"})
    base.emplace("src/" + std::string(file), testing::read_fixture("shared_enum_" + std::string(file)));
  SourceFiles head = base;
  head["src/common.h"] = replaced(head["src/common.h"], "  Sigmoid,\n", "  Sigmoid,\n  SiLU,\n");
  const auto outcome = analyse(base, head);
  CHECK(outcome.names() == std::vector<std::string>{"modified activate", "modified apply_settings"});
  for (const auto& kernel : outcome.analysis.kernels)
    CHECK_THAT(kernel.reasons, VectorContains(std::string("declaration Activation changed")));
}
