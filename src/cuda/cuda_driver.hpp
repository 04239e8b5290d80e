// SPDX-License-Identifier: Apache-2.0
#pragma once

// The real Driver: libcuda opened at run time and initialised. A stub libcuda (the toolkit's
// link-time stand-in), a driver without devices, or a failing cuInit are Unavailable, not errors:
// on such machines kforecast forecasts and skips benchmarks.

#include <expected>
#include <memory>
#include <span>
#include <string>

#include "cuda/driver.hpp"
#include "cuda/driver_api.hpp"
#include "cuda/dynamic_library.hpp"
#include "cuda/library_search.hpp"

namespace kforecast::cuda {

class CudaDriver final : public Driver {
 public:
  static std::expected<std::unique_ptr<CudaDriver>, Unavailable> load(std::span<const std::string> candidates);

  std::string library_path() const override { return m_path; }
  DriverVersion version() const override { return m_version; }
  Result<std::vector<DeviceInfo>> devices() const override;
  Result<void> check_context(int ordinal) const override;

  // The entry points, for code that runs kernels (src/bench/gpu.hpp); every call goes through
  // KF_CU_CALL.
  const DriverApi& api() const { return m_api; }

 private:
  CudaDriver(DynamicLibrary library, DriverApi api, std::string path, DriverVersion version);
  Result<DeviceInfo> device(int ordinal) const;

  DynamicLibrary m_library;
  DriverApi m_api;
  std::string m_path;
  DriverVersion m_version;
};

// The driver from driver_candidates(options).
LoadedDriver load_driver(const LoaderOptions& options);

}  // namespace kforecast::cuda
