// SPDX-License-Identifier: Apache-2.0
#include "kernels/device_source.hpp"

#include <algorithm>

#include <catch2/catch.hpp>

using namespace kforecast::kernels;
using Catch::Matchers::Contains;

namespace {
constexpr std::string_view source = R"(#include <cstdio>
#include <cuda_fp16.h>
#include "local.cuh"
constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }
namespace ops {
__global__ void k(float* a, int n) { a[threadIdx.x] = ceil_div(n, 32); }
struct Launcher { void go(); };
}
int main() {
  float* a;
  cudaMalloc(&a, 64);
  ops::k<<<1, 32>>>(a, 64);
  printf("done\n");
}
)";

DeviceSource strip(std::string_view text) {
  return device_source(text, scan_cuda_source(text),
                       [](std::string_view header) { return header.starts_with("cuda"); });
}
}  // namespace

TEST_CASE("kernels: the device-only unit drops host code and keeps line numbers") {
  const DeviceSource device = strip(source);
  CHECK(device.text.size() == source.size());
  CHECK(std::count(device.text.begin(), device.text.end(), '\n') == std::count(source.begin(), source.end(), '\n'));
  CHECK_THAT(device.text, !Contains("cudaMalloc"));
  CHECK_THAT(device.text, !Contains("<cstdio>"));
  CHECK_THAT(device.text, Contains("#include <cuda_fp16.h>"));
  CHECK_THAT(device.text, Contains("#include \"local.cuh\""));
  CHECK_THAT(device.text, Contains("__global__ void k(float* a, int n)"));
  CHECK_THAT(device.text, Contains("constexpr int ceil_div"));  // named by device code: kept
  CHECK_THAT(device.text, Contains("struct Launcher"));
  CHECK(device.removed == std::vector<std::string>{"#include <cstdio> (line 1)", "host function main (line 9)"});
}

TEST_CASE("kernels: the device-only unit of broken input still ends") {
  for (std::string_view junk : {"", "int f() {", "namespace {", "#include <", "}}}", "void f() { int g() { }"}) {
    INFO(junk);
    const DeviceSource device = strip(junk);
    CHECK(device.text.size() == junk.size());
  }
}
