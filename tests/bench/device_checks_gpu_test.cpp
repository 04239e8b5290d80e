// SPDX-License-Identifier: Apache-2.0
// The support kernels against the host's own draws and comparison (bench/host_buffers.hpp), on a
// real GPU: kforecast_fill writes what drawn_values gives, lane type by lane type and
// distribution by distribution, and kforecast_compare finds what compare_outputs finds. Skipped
// (exit 77) without a GPU and NVRTC.
#include <cmath>
#include <limits>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "bench/device_checks.hpp"
#include "bench/runner.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/library_search.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;
using namespace kforecast::bench;

std::optional<std::string> kforecast::testing::missing_requirement() {
  if (auto missing = testing::missing_gpu()) return missing;
  return testing::missing_nvrtc();
}

namespace {

struct Device {
  std::unique_ptr<cuda::CudaDriver> driver;
  std::unique_ptr<Gpu> gpu;
  cuda::CUfunction fill = nullptr, compare = nullptr;

  Device() {
    auto loaded = cuda::CudaDriver::load(cuda::driver_candidates(testing::test_loader_options()));
    if (!loaded) FAIL(loaded.error().message());
    driver = std::move(*loaded);
    auto opened = Gpu::open(*driver, 0);
    if (!opened) FAIL(opened.error().message);
    gpu = std::move(*opened);
    auto nvrtc = testing::load_test_nvrtc();
    if (!nvrtc) FAIL(nvrtc.error().message());
    cuda::CompileRequest request;
    request.source = std::string(runner_support_source());
    request.file_name = "kforecast_support.cu";
    request.arch = gpu->device().arch();
    auto code = (*nvrtc)->compile(request);
    if (!code) FAIL(code.error().message);
    fill = *gpu->load_function(code->cubin, std::string(fill_kernel_name));
    compare = *gpu->load_function(code->cubin, std::string(compare_kernel_name));
  }
};

ResolvedArgument argument_of(ElementType type, Distribution distribution, double a, double b, std::int64_t count) {
  ResolvedArgument argument;
  argument.name = "x";
  argument.type = std::move(type);
  argument.buffer = true;
  argument.count = count;
  argument.init.distribution = distribution;
  argument.init.a = a;
  argument.init.b = b;
  argument.rtol = 1e-6;
  argument.atol = 0;
  return argument;
}

}  // namespace

TEST_CASE("device checks gpu: the fill kernel draws what the host draws, for every lane type and distribution") {
  Device device;
  const std::vector<ElementType> types{
      {"float", ScalarKind::floating, 4, 1},           {"double", ScalarKind::floating, 8, 1},
      {"__half", ScalarKind::half, 2, 1},              {"__nv_bfloat16", ScalarKind::bfloat16, 2, 1},
      {"int8_t", ScalarKind::signed_integer, 1, 1},    {"int", ScalarKind::signed_integer, 4, 1},
      {"int64_t", ScalarKind::signed_integer, 8, 1},   {"uint16_t", ScalarKind::unsigned_integer, 2, 1},
      {"float4", ScalarKind::floating, 4, 4}};
  const std::vector<std::tuple<Distribution, double, double>> draws{{Distribution::uniform, -1, 1},
                                                                     {Distribution::normal, 0, 1},
                                                                     {Distribution::constant, 3, 0},
                                                                     {Distribution::iota, 5, 2},
                                                                     {Distribution::random_integers, -7, 100}};
  for (const auto& type : types)
    for (const auto& [distribution, a, b] : draws) {
      const auto argument = argument_of(type, distribution, a, b, 100003);
      INFO(type.name << " distribution " << static_cast<int>(distribution));
      const auto bytes = static_cast<std::size_t>(argument.bytes());
      auto out = device.gpu->allocate(bytes);
      REQUIRE(out.has_value());
      REQUIRE(fill_on_device(*device.gpu, device.fill, *out, argument, 7).has_value());
      REQUIRE(device.gpu->synchronize().has_value());
      std::vector<std::byte> on_device(bytes);
      REQUIRE(device.gpu->download(on_device, *out).has_value());
      const auto on_host = initial_values(argument, 7);
      // The normal draws go through log, sin and cos, whose last bits the GPU's and the host's
      // libraries may round apart; everything else is the same bits.
      ResolvedArgument compared = argument;
      compared.rtol = distribution == Distribution::normal && type.lane_bytes == 8 ? 1e-12 : 0;
      compared.atol = 0;
      if (distribution == Distribution::normal && type.lane_bytes < 8) compared.rtol = 1e-6, compared.atol = 1e-6;
      const auto comparison = compare_outputs(compared, on_host, on_device);
      CHECK(comparison.mismatches == 0);
      if (comparison.mismatches) FAIL_CHECK(comparison.describe());
    }
}

TEST_CASE("device checks gpu: the compare kernel finds what the host's comparison finds") {
  Device device;
  const std::int64_t n = 1 << 20;
  auto argument = argument_of({"float", ScalarKind::floating, 4, 1}, Distribution::uniform, -1, 1, n);
  argument.rtol = 1e-4;
  argument.atol = 1e-5;
  std::vector<float> reference(static_cast<std::size_t>(n)), candidate;
  for (std::int64_t i = 0; i < n; ++i) reference[static_cast<std::size_t>(i)] = std::sin(static_cast<float>(i));
  candidate = reference;
  candidate[1000] += 1e-7f;                                           // within the tolerance
  candidate[70001] = 5.0f;                                            // the first that disagrees
  candidate[900000] = std::numeric_limits<float>::quiet_NaN();        // NaN against a number
  reference[500] = candidate[500] = std::numeric_limits<float>::infinity();  // the same infinity agrees
  const auto bytes = static_cast<std::size_t>(n) * 4;
  auto expected = device.gpu->allocate(bytes), actual = device.gpu->allocate(bytes), scratch = device.gpu->allocate(32);
  REQUIRE((expected && actual && scratch));
  REQUIRE(device.gpu->upload(*expected, std::as_bytes(std::span(reference))).has_value());
  REQUIRE(device.gpu->upload(*actual, std::as_bytes(std::span(candidate))).has_value());
  auto on_device = compare_on_device(*device.gpu, device.compare, *scratch, *expected, *actual, argument);
  REQUIRE(on_device.has_value());
  const auto on_host = compare_outputs(argument, std::as_bytes(std::span(reference)), std::as_bytes(std::span(candidate)));
  CHECK(on_device->mismatches == on_host.mismatches);
  CHECK(on_device->mismatches == 2);
  CHECK(on_device->first_mismatch == 70001);
  CHECK(on_device->candidate_value == 5.0);
  CHECK(on_device->reference_value == Approx(on_host.reference_value));
  CHECK(on_device->max_abs_error == Approx(on_host.max_abs_error));
  CHECK(on_device->max_rel_error == Approx(on_host.max_rel_error));
  CHECK(on_device->describe() == on_host.describe());
}
