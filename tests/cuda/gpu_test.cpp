// SPDX-License-Identifier: Apache-2.0
// The real driver on a real GPU. Skipped (exit 77) where there is none: no libcuda, a stub, or
// no device.
#include <regex>

#include <catch2/catch.hpp>

#include "cuda/cuda_driver.hpp"
#include "cuda/nvml.hpp"
#include "cuda/probe.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::cuda;

namespace {

const Driver& driver() {
  static const auto loaded = load_driver(kforecast::testing::test_loader_options());
  if (!loaded) FAIL(loaded.error().message());
  return **loaded;
}

}  // namespace

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_gpu(); }

TEST_CASE("cuda: the driver lists usable GPUs") {
  CHECK(driver().version().major >= 11);
  auto devices = driver().devices();
  REQUIRE(devices.has_value());
  REQUIRE_FALSE(devices->empty());
  for (const auto& device : *devices) {
    INFO(describe_device(device));
    CHECK_FALSE(device.name.empty());
    CHECK(device.compute_major >= 7);
    CHECK(device.sm_count > 0);
    CHECK(device.total_memory_bytes > (std::int64_t{1} << 30));
    CHECK(device.l2_cache_bytes > 0);
    CHECK(device.max_shared_per_block_optin_bytes >= 48 * 1024);
    CHECK(device.registers_per_sm >= 32 * 1024);
    CHECK(driver().check_context(device.ordinal).has_value());
  }
  const auto lines = describe_cuda_status(probe_cuda({}, kforecast::process_environment()));
  for (const auto& line : lines) std::printf("%s: %s\n", line.label.c_str(), line.text.c_str());
}

TEST_CASE("cuda: a device that does not exist is an Error naming the call") {
  auto result = driver().check_context(4096);
  REQUIRE_FALSE(result.has_value());
  CHECK(result.error().message.find("cuDeviceGet(&device, ordinal) failed: CUDA_ERROR_INVALID_DEVICE") !=
        std::string::npos);
}

TEST_CASE("cuda: NVML reports the driver's own version beside the driver") {
  const auto version = nvidia_driver_version();
  REQUIRE(version.has_value());
  INFO(*version);
  CHECK(std::regex_match(*version, std::regex(R"(\d+\.\d+(\.\d+)?)")));
}
