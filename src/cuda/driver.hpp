// SPDX-License-Identifier: Apache-2.0
#pragma once

// The GPU as kforecast sees it through the CUDA driver API. Abstract so tests (and `doctor`'s
// tests) can use FakeDriver (fake_driver.hpp); CudaDriver (cuda_driver.hpp) is the real one.

#include <cstdint>
#include <expected>
#include <memory>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "cuda/unavailable.hpp"

namespace kforecast::cuda {

struct DriverVersion {
  int major = 0;
  int minor = 0;
  // cuDriverGetVersion's encoding: 1000 * major + 10 * minor (12080 is 12.8).
  static DriverVersion from_encoded(int encoded) { return {encoded / 1000, (encoded % 1000) / 10}; }
  std::string text() const { return std::to_string(major) + "." + std::to_string(minor); }
  friend bool operator==(const DriverVersion&, const DriverVersion&) = default;
};

// What the forecaster and the benchmark need to know about one GPU. Zero means "not reported".
struct DeviceInfo {
  int ordinal = 0;
  std::string name;  // "NVIDIA H100 80GB HBM3"
  int compute_major = 0;
  int compute_minor = 0;
  int sm_count = 0;
  std::int64_t total_memory_bytes = 0;
  int clock_rate_khz = 0;
  int memory_clock_rate_khz = 0;
  int memory_bus_width_bits = 0;
  std::int64_t l2_cache_bytes = 0;
  std::int64_t max_shared_per_block_optin_bytes = 0;
  std::int64_t max_shared_per_sm_bytes = 0;
  int registers_per_sm = 0;
  int max_threads_per_sm = 0;

  // The NVRTC target for this GPU: "sm_90".
  std::string arch() const { return "sm_" + std::to_string(compute_major) + std::to_string(compute_minor); }
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual std::string library_path() const = 0;
  virtual DriverVersion version() const = 0;
  virtual Result<std::vector<DeviceInfo>> devices() const = 0;
  // Creates (retains) and releases the device's primary context: proves the GPU is usable.
  virtual Result<void> check_context(int ordinal) const = 0;
};

using LoadedDriver = std::expected<std::unique_ptr<Driver>, Unavailable>;

}  // namespace kforecast::cuda
