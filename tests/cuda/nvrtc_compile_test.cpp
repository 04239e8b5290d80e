// SPDX-License-Identifier: Apache-2.0
// Compiling with the real NVRTC. Skipped (exit 77) where NVRTC cannot be loaded.
#include <catch2/catch.hpp>

#include "cuda/nvrtc.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::cuda;

namespace {

const Compiler& nvrtc() {
  static const auto compiler = kforecast::testing::load_test_nvrtc();
  if (!compiler) FAIL(compiler.error().message());
  return **compiler;
}

// Shared memory, a barrier, and a local array indexed at run time, which must live on the stack.
constexpr const char* resource_kernel = R"(
extern "C" __global__ void tiled(float* out, const float* in, int n) {
  __shared__ float tile[256];
  float local[64];
  for (int j = 0; j < 64; ++j) local[j] = in[j * n + threadIdx.x];
  for (int j = 0; j < n; ++j) local[(j * n) & 63] += in[j];
  tile[threadIdx.x] = local[(n * threadIdx.x) & 63];
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}
)";

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() { return missing_nvrtc(); }

TEST_CASE("cuda: NVRTC loads and reports itself") {
  const auto& compiler = nvrtc();
  CHECK(compiler.version().major >= 11);
  CHECK_FALSE(compiler.library_path().empty());
  const auto archs = compiler.supported_archs();
  if (compiler.version().major >= 12) CHECK(std::find(archs.begin(), archs.end(), 90) != archs.end());
}

TEST_CASE("cuda: NVRTC compiles for sm_90 and reports resources") {
  auto output = nvrtc().compile({.source = resource_kernel, .file_name = "tiled.cu", .arch = "sm_90"});
  REQUIRE(output.has_value());
  CHECK_FALSE(output->cubin.empty());
  CHECK(contains(output->ptx, ".entry tiled"));
  CHECK(contains(output->log, "ptxas info"));
  const auto* tiled = find_function(output->functions, "tiled");
  REQUIRE(tiled != nullptr);
  CHECK(tiled->arch == "sm_90");
  CHECK(tiled->registers > 0);
  CHECK(tiled->shared_bytes == 256 * 4);
  CHECK(tiled->barriers == 1);
  CHECK(tiled->stack_frame_bytes > 0);
  CHECK(tiled->cumulative_stack_bytes >= tiled->stack_frame_bytes);
}

TEST_CASE("cuda: NVRTC lowers template instantiations named by expression") {
  constexpr const char* source = R"(
#include "scale.cuh"
template <int N> __global__ void scale(float* x) { x[threadIdx.x] *= N * FACTOR; }
)";
  CompileRequest request{.source = source, .file_name = "scale.cu", .arch = "sm_90"};
  request.headers = {{"scale.cuh", "#pragma once\n"}};
  request.defines = {{"FACTOR", "2"}};
  request.name_expressions = {"scale<4>"};
  auto output = nvrtc().compile(request);
  REQUIRE(output.has_value());
  REQUIRE(output->lowered_names.size() == 1);
  CHECK(output->lowered_names[0].expression == "scale<4>");
  CHECK(output->lowered_names[0].lowered == "_Z5scaleILi4EEvPf");
  const auto* scale = find_function(output->functions, "scale<4>");
  REQUIRE(scale != nullptr);
  CHECK(scale->name == "_Z5scaleILi4EEvPf");
  CHECK(scale->registers > 0);
}

TEST_CASE("cuda: NVRTC PTX-only targets give PTX and no CUBIN") {
  auto output = nvrtc().compile({.source = resource_kernel, .arch = "compute_90"});
  REQUIRE(output.has_value());
  CHECK(output->cubin.empty());
  CHECK(contains(output->ptx, ".target sm_90"));
}

TEST_CASE("cuda: a source that does not compile is an Error carrying the compile log") {
  auto output = nvrtc().compile(
      {.source = "extern \"C\" __global__ void k(int* x) { x[0] = undefined_y; }\n", .file_name = "broken.cu"});
  REQUIRE_FALSE(output.has_value());
  const auto& message = output.error().message;
  // The compiler's own words come first, under one line naming the file; the internal call that
  // failed is no news to a kernel author (a note keeps only its first lines).
  CHECK(
      message.starts_with("broken.cu does not compile for sm_90:\nbroken.cu(1): error: identifier \"undefined_y\" is "
                          "undefined"));
  CHECK_FALSE(contains(message, "nvrtcCompileProgram"));
}

TEST_CASE("cuda: a UTF-8 byte-order mark and Latin-1 bytes compile, as nvcc compiles them") {
  const std::string body = "__global__ void k(float* a) { a[0] = 1.0f; }\n";
  CHECK(nvrtc().compile({.source = "\xEF\xBB\xBF" + body, .file_name = "bom.cu"}));
  CHECK(nvrtc().compile({.source = "// caf\xE9 cr\xE8me\n" + body, .file_name = "latin1.cu"}));
  CompileRequest with_header{.source = "#include \"h.cuh\"\n" + body, .file_name = "k.cu"};
  with_header.headers = {{"h.cuh", "\xEF\xBB\xBF#pragma once\n"}};
  CHECK(nvrtc().compile(with_header));
}

TEST_CASE("cuda: an invalid name expression and an invalid arch are Errors naming the call") {
  CompileRequest request{.source = resource_kernel};
  request.name_expressions = {"no_such_kernel<1>"};
  auto output = nvrtc().compile(request);
  REQUIRE_FALSE(output.has_value());
  CHECK(contains(output.error().message, "no_such_kernel<1>"));

  auto bad_arch = nvrtc().compile({.source = resource_kernel, .arch = "sm_1"});
  REQUIRE_FALSE(bad_arch.has_value());
  CHECK(contains(bad_arch.error().message, "NVRTC_ERROR_INVALID_OPTION"));
}
