// SPDX-License-Identifier: Apache-2.0
// The CUDA toolkit's stubs/libcuda.so, loaded as if it were the driver, must read as "no driver"
// with the reason. Skipped (exit 77) where the toolkit is not installed.
#include <catch2/catch.hpp>

#include <filesystem>

#include "cuda/cuda_driver.hpp"
#include "support/requirement.hpp"

using namespace kforecast::cuda;

namespace {
const std::string stub_path = "/usr/local/cuda/lib64/stubs/libcuda.so";
}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() {
  if (!std::filesystem::exists(stub_path))
    return stub_path +
           " does not exist: this test needs a CUDA toolkit installed in /usr/local/cuda (its link-time stub)";
  return std::nullopt;
}

TEST_CASE("cuda: the toolkit's stub libcuda is not a driver") {
  auto driver = load_driver({.driver_library = stub_path});
  REQUIRE_FALSE(driver.has_value());
  const auto message = driver.error().message();
  CHECK(message.starts_with("the CUDA driver found is a stub library ("));
  CHECK(message.find("stubs/libcuda.so") != std::string::npos);
  CHECK(message.find("benchmarks skipped; install the NVIDIA driver or run on a GPU runner") != std::string::npos);
  REQUIRE_FALSE(driver.error().tried.empty());
  CHECK(driver.error().tried.back().error.find("cuInit(0) failed: CUDA_ERROR_STUB_LIBRARY (34)") != std::string::npos);
}
