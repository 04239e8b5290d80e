// SPDX-License-Identifier: Apache-2.0
// The identical-code evidence on real NVRTC output: edits that cannot change a kernel's code
// leave its canonical text equal; edits that can, change it. Skipped (exit 77) without NVRTC.

#include <catch2/catch.hpp>

#include "cuda/nvrtc.hpp"
#include "policy/ptx_code.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;

namespace {

const cuda::Compiler& nvrtc() {
  static const auto compiler = kforecast::testing::load_test_nvrtc();
  return **compiler;
}

constexpr std::string_view base_source = R"(
#define SCALE 2.0f
__constant__ float table[4] = {1, 2, 3, 4};
__device__ __noinline__ float helper(float x) { return x * table[1]; }
__device__ float twice(float x) { return helper(x) * SCALE; }
template <int N>
__global__ void scale(float* a) {
  __shared__ float tile[N];
  tile[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 7) a[threadIdx.x] = twice(tile[(threadIdx.x + 1) % N]) * N;
}
template __global__ void scale<64>(float*);
extern "C" __global__ void other(float* a) { a[threadIdx.x] += 1.0f; }
)";

std::string code_of(std::string_view source, const std::string& expression) {
  cuda::CompileRequest request{.source = std::string(source), .arch = "compute_90", .name_expressions = {expression}};
  auto output = nvrtc().compile(request);
  REQUIRE(output.has_value());
  REQUIRE(output->lowered_names.size() == 1);
  auto code = policy::canonical_kernel_code(policy::parse_ptx(output->ptx), output->lowered_names[0].lowered);
  REQUIRE(code.has_value());
  return *code;
}

std::string edited(std::string_view from, std::string_view to) {
  std::string text(base_source);
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() { return missing_nvrtc(); }

TEST_CASE("policy: identical code through NVRTC") {
  const std::string base = code_of(base_source, "scale<64>");
  SECTION("comments and blank lines") {
    CHECK(code_of(edited("#define SCALE", "// tuned by hand\n\n#define SCALE"), "scale<64>") == base);
  }
  SECTION("a device function it does not call") {
    CHECK(code_of(std::string(base_source) + "\n__device__ int unused(int x) { return x * 3; }\n", "scale<64>") ==
          base);
  }
  SECTION("another kernel added before it (shifts labels and line numbers)") {
    CHECK(code_of(edited("template <int N>",
                         "__global__ void first(int* p) { if (*p) *p = 0; else *p = 1; }\n"
                         "template <int N>"),
                  "scale<64>") == base);
  }
  SECTION("another kernel changed") { CHECK(code_of(edited("+= 1.0f", "+= 2.0f"), "scale<64>") == base); }
  SECTION("a change two calls deep") { CHECK(code_of(edited("x * table[1]", "x * table[2]"), "scale<64>") != base); }
  SECTION("a macro it uses") { CHECK(code_of(edited("SCALE 2.0f", "SCALE 3.0f"), "scale<64>") != base); }
  SECTION("a constant's value") { CHECK(code_of(edited("{1, 2, 3, 4}", "{1, 5, 3, 4}"), "scale<64>") != base); }
  SECTION("the instantiation") { CHECK(code_of(base_source, "scale<32>") != base); }
}
