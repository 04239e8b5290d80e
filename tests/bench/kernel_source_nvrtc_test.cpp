// SPDX-License-Identifier: Apache-2.0
// Preparing and compiling benchmark kernels with the real NVRTC: every buffer element type the
// runner fills, and a template instantiation named by an NVRTC name expression. Skipped (exit
// 77) where NVRTC cannot be loaded.
#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "bench/kernel_source.hpp"
#include "bench/launch_spec_reader.hpp"
#include "bench/resolved_launch.hpp"
#include "bench/runner.hpp"
#include "cuda/nvrtc.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::bench;

namespace {

const kforecast::cuda::Compiler& nvrtc() {
  static const auto compiler = kforecast::testing::load_test_nvrtc();
  if (!compiler) FAIL(compiler.error().message());
  return **compiler;
}

// The toolkit headers kforecast compiles benchmark kernels with (measure/bench_measure.cpp): those
// of CUDA_HOME's toolkit where it has them, so that NVRTC and its headers are of one version
// where CUDA_HOME names the toolkit (scripts/nvrtc-versions.sh).
const std::string include_dir = kforecast::cuda::toolkit_include_dir(kforecast::process_environment());

bool available(std::string_view header) { return kforecast::cuda::toolkit_has_header(include_dir, header); }

// One kernel per element type; each spec's buffer takes the signature's type. (<cstdint> is not
// a CUDA header, so the device-only unit drops it: the fixed-width names are tested in
// element_type_test.cpp.)
constexpr std::string_view every_type = R"cuda(#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <vector>

// kforecast:
// sizes = [{ n = 1024 }]
// grid = ["ceil_div(n, 256)"]
// block = [256]
// [kernel.args]
// x = { count = "n" }
// y = { count = "n", role = "out" }
// n = "n"
// scale = "0.5"
__global__ void every(const float* x, double* y, int n, float scale) {}

__global__ void halves(const __half* x, __half2* y, long long n, __half scale) {}
__global__ void bfloats(const __nv_bfloat16* x, __nv_bfloat162* y, unsigned n, __nv_bfloat16 scale) {}
__global__ void integers(const signed char* x, unsigned long long* y, size_t n, float scale) {}
__global__ void vectors(const float4* x, int2* y, long long n, double scale) {}
__global__ void bytes(const unsigned char* x, uchar4* y, int n, float scale) {}
__global__ void narrow(const float* x, float* y, int n, short scale) {}

template <int EXTRA, typename T>
__global__ void tmpl(const T* x, T* y, int n, float scale) {}
template __global__ void tmpl<3, float>(const float*, float*, int, float);

void host_only() { std::vector<int> v; }
)cuda";

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() {
  if (auto missing = missing_nvrtc()) return missing;
  if (!available("cuda_fp16.h"))
    return "no CUDA toolkit headers (cuda_fp16.h) in " +
           (include_dir.empty() ? "$CUDA_HOME/include, /usr/local/cuda/include or scripts/setup.sh's toolkit"
                                : include_dir) +
           ": install the CUDA toolkit, set CUDA_HOME to one, or run scripts/setup.sh";
  return std::nullopt;
}

TEST_CASE("bench: every buffer type compiles, binds and fills") {
  const KernelSource source{"every.cu", "every.cu", std::string(every_type)};
  auto first = prepare_kernel(source, "every", available);
  if (!first) FAIL(first.error().message);
  REQUIRE(first->comment_spec.has_value());
  const LaunchSpec spec = *first->comment_spec;
  for (std::string_view kernel : {"every", "halves", "bfloats", "integers", "vectors", "bytes", "tmpl<3, float>"}) {
    INFO(kernel);
    auto prepared = prepare_kernel(source, kernel, available);
    if (!prepared) FAIL(prepared.error().message);
    auto request = prepared->request;
    request.arch = "sm_90";
    request.include_dirs = kforecast::cuda::toolkit_header_dirs(include_dir);
    auto output = nvrtc().compile(request);
    if (!output) FAIL(output.error().message);
    CHECK_FALSE(output->cubin.empty());
    REQUIRE(output->lowered_names.size() == 1);
    CHECK(output->lowered_names[0].lowered.starts_with("_Z"));
    auto launch = resolve_launch(spec, spec.sizes[0], prepared->function.parameters);
    if (!launch) FAIL(launch.error().message);
    REQUIRE(launch->arguments.size() == 4);
    CHECK(launch->arguments[0].buffer);
    CHECK(launch->arguments[1].role == Role::out);
    CHECK_FALSE(launch->arguments[3].buffer);
  }
}

TEST_CASE("bench: a floating value for an integer scalar is an error naming the key") {
  const KernelSource source{"every.cu", "every.cu", std::string(every_type)};
  auto every = prepare_kernel(source, "every", available);
  auto narrow = prepare_kernel(source, "narrow", available);
  REQUIRE(every.has_value());
  REQUIRE(narrow.has_value());
  const LaunchSpec spec = *every->comment_spec;
  auto launch = resolve_launch(spec, spec.sizes[0], narrow->function.parameters);
  REQUIRE_FALSE(launch.has_value());
  CHECK(launch.error().message.find("key 'args.scale': expression '0.5'") != std::string::npos);
}

TEST_CASE("bench: a template kernel named without arguments takes its first instantiation") {
  const KernelSource source{"every.cu", "every.cu", std::string(every_type)};
  auto prepared = prepare_kernel(source, "tmpl", available);
  if (!prepared) FAIL(prepared.error().message);
  CHECK(prepared->name_expression == "tmpl<3, float>");
  auto not_template = prepare_kernel(source, "every<3>", available);
  REQUIRE_FALSE(not_template.has_value());
  CHECK(not_template.error().message.find("is not a template") != std::string::npos);
}

TEST_CASE("bench: a namespaced template kernel is named with or without its namespace") {
  // The gate names a header's template by the instantiation the project's build made, qualified
  // ("ns::tiled<64>"); it became "ns::ns::tiled<64>", which names no kernel.
  const KernelSource source{"tiled.cuh", "tiled.cuh",
                            "namespace ns {\ntemplate <int N> __global__ void tiled(float* p) { p[threadIdx.x] *= N; }\n}\n"};
  auto qualified = prepare_kernel(source, "ns::tiled<64>", available);
  if (!qualified) FAIL(qualified.error().message);
  CHECK(qualified->name_expression == "ns::tiled<64>");
  auto short_name = prepare_kernel(source, "tiled<32>", available);
  if (!short_name) FAIL(short_name.error().message);
  CHECK(short_name->name_expression == "ns::tiled<32>");
  auto uninstantiated = prepare_kernel(source, "ns::tiled", available);
  REQUIRE_FALSE(uninstantiated.has_value());
  CHECK(uninstantiated.error().message.find("name an instantiation") != std::string::npos);
}

TEST_CASE("bench: the runner's spin kernel compiles") {
  kforecast::cuda::CompileRequest request;
  request.source = std::string(runner_support_source());
  request.arch = "sm_90";
  auto output = nvrtc().compile(request);
  if (!output) FAIL(output.error().message);
  CHECK(output->ptx.find(spin_kernel_name) != std::string::npos);
}

TEST_CASE("bench: the GPU fixtures compile, with their specs") {
  for (std::string_view kernel : {"copy", "copy_strided", "copy_wrong", "copy_out_of_bounds", "copy_hangs"}) {
    INFO(kernel);
    const std::string path = std::string(KF_SOURCE_DIR) + "/fixtures/bench/copy.cu";
    std::ifstream in(path);
    const KernelSource source{path, path, std::string{std::istreambuf_iterator<char>(in), {}}};
    auto prepared = prepare_kernel(source, kernel, available);
    if (!prepared) FAIL(prepared.error().message);
    auto request = prepared->request;
    request.arch = "sm_90";
    auto output = nvrtc().compile(request);
    if (!output) FAIL(output.error().message);
    CHECK_FALSE(output->cubin.empty());
  }
}
