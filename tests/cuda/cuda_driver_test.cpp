// SPDX-License-Identifier: Apache-2.0
// The driver loader's failures, which need no GPU; a real GPU is gpu_test.cpp, the toolkit's stub
// library stub_driver_test.cpp.
#include "cuda/cuda_driver.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::cuda;

TEST_CASE("cuda: CudaDriver::load without a driver") {
  SECTION("no libcuda: names the fix and every path tried") {
    const std::vector<std::string> candidates = {"/nonexistent/libcuda.so.1", "libcuda-kforecast-none.so.1"};
    auto driver = CudaDriver::load(candidates);
    REQUIRE_FALSE(driver.has_value());
    CHECK(driver.error().message() ==
          "libcuda.so.1 not found (tried /nonexistent/libcuda.so.1, libcuda-kforecast-none.so.1): benchmarks skipped; "
          "install the NVIDIA driver or run on a GPU runner");
  }
  SECTION("a library that is not the driver") {
    const std::vector<std::string> candidates = {"libm.so.6"};
    auto driver = CudaDriver::load(candidates);
    REQUIRE_FALSE(driver.has_value());
    CHECK(driver.error().what.find("lacks cuGetErrorName") != std::string::npos);
    CHECK(driver.error().fix == "update the NVIDIA driver");
  }
}

TEST_CASE("cuda: DriverVersion") {
  CHECK(DriverVersion::from_encoded(12080).text() == "12.8");
  CHECK(DriverVersion::from_encoded(13000) == DriverVersion{13, 0});
  CHECK(DriverVersion::from_encoded(11020).text() == "11.2");
}

TEST_CASE("cuda: DeviceInfo::arch") {
  DeviceInfo device;
  device.compute_major = 12;
  device.compute_minor = 0;
  CHECK(device.arch() == "sm_120");
  device.compute_major = 8;
  device.compute_minor = 6;
  CHECK(device.arch() == "sm_86");
}
