// SPDX-License-Identifier: Apache-2.0
#include "kernels/excerpt.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::kernels;
using Catch::Matchers::Contains;

namespace {

const SourceFiles files = {
    {"src/types.cuh", "#pragma once\nstruct Params { int n; float alpha; };\nstruct Unused { int x; };\n"},
    {"src/common.cuh",
     "#pragma once\n#include \"types.cuh\"\n#define TILE 16\n#define OTHER 3\n"
     "__device__ inline float twice(float x) { return 2.0f * x; }\n"
     "__device__ inline float never_called(float x) { return x; }\n"},
    {"src/gemm.cu",
     "#include \"common.cuh\"\n"
     "#include <cstdio>\n"
     "__constant__ float table[4] = {1, 2, 3, 4};\n"
     "namespace detail {\n"
     "__device__ float leaf(float x) { return twice(x) * table[1]; }\n"
     "}\n"
     "// Scales by alpha.\n"
     "__global__ void scale(float* a, Params p) {\n"
     "  int i = blockIdx.x * TILE + threadIdx.x;\n"
     "  if (i < p.n) a[i] = detail::leaf(a[i]) * p.alpha;\n"
     "}\n"
     "__global__ void copy(float* dst, const float* src) { dst[threadIdx.x] = src[threadIdx.x]; }\n"
     "void launch(float* a, Params p) { scale<<<1, TILE>>>(a, p); }\n"},
};

std::size_t index_of(const RevisionSources& sources, const std::string& path, std::string_view name) {
  const auto& functions = sources.scanned(path).functions;
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (functions[i].name == name) return i;
  FAIL("no function " << name);
  return 0;
}

}  // namespace

TEST_CASE("excerpt: the kernel and exactly what it reaches, headers first") {
  const RevisionSources sources(files);
  const auto excerpt = kernel_excerpt(sources, "src/gemm.cu", index_of(sources, "src/gemm.cu", "scale"));
  const std::string& text = excerpt.text;
  INFO(text);
  CHECK_FALSE(excerpt.truncated);
  // Reached: the type, the macro, the device functions (across files and a namespace), the table.
  for (std::string_view piece : {"struct Params { int n; float alpha; };", "#define TILE 16",
                                 "__device__ inline float twice(float x)", "__constant__ float table[4]",
                                 "// detail::leaf\n__device__ float leaf", "__global__ void scale(float* a, Params p)"})
    CHECK_THAT(text, Contains(std::string(piece)));
  // Not reached: other kernels, other device functions, other macros and types, host code.
  for (std::string_view absent : {"copy", "never_called", "OTHER", "Unused", "launch", "#include", "Scales by"})
    CHECK_THAT(text, !Contains(std::string(absent)));
  // A type comes before the code that uses it; the kernel last.
  CHECK(text.find("// file: src/types.cuh") < text.find("// file: src/common.cuh"));
  CHECK(text.find("// file: src/common.cuh") < text.find("// file: src/gemm.cu"));
  CHECK(text.find("leaf") < text.find("__global__ void scale"));
  CHECK(text.ends_with("}\n"));
}

TEST_CASE("excerpt: a long excerpt is cut at a line end and says so") {
  std::string body;
  for (int i = 0; i < 400; ++i) body += "  a[" + std::to_string(i) + "] = 0;\n";
  const SourceFiles big = {{"k.cu", "__global__ void k(float* a) {\n" + body + "}\n"}};
  const RevisionSources sources(big);
  const auto excerpt = kernel_excerpt(sources, "k.cu", 0, 1024);
  CHECK(excerpt.truncated);
  CHECK(excerpt.text.size() < 1024 + 100);
  CHECK_THAT(excerpt.text, Contains("// ... cut: the excerpt is longer than 1024 bytes"));
  CHECK(excerpt.text.rfind("= 0;\n// ... cut") != std::string::npos);  // whole lines only
}

TEST_CASE("excerpt: include cycles and a kernel that reaches itself end") {
  const SourceFiles cyclic = {
      {"a.cuh", "#include \"b.cuh\"\n#define A 1\n"},
      {"b.cuh", "#include \"a.cuh\"\n#define B 2\n"},
      {"k.cu", "#include \"a.cuh\"\n__global__ void k(int* x) { x[0] = A + B; k<<<1, 1>>>(x); }\n"}};
  const RevisionSources sources(cyclic);
  const auto excerpt = kernel_excerpt(sources, "k.cu", 0);
  CHECK_THAT(excerpt.text, Contains("#define A 1"));
  CHECK_THAT(excerpt.text, Contains("#define B 2"));
  CHECK(excerpt.text.find("__global__ void k") == excerpt.text.rfind("__global__ void k"));
}
