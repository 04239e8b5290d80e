// SPDX-License-Identifier: Apache-2.0
#pragma once

// What CUDA capability this machine has, in one call, for `kforecast doctor` and for deciding
// up front whether compiler facts and benchmarks are possible.

#include <expected>
#include <optional>
#include <string>
#include <vector>

#include "base/status_line.hpp"
#include "cuda/compiler.hpp"
#include "cuda/driver.hpp"
#include "cuda/library_search.hpp"

namespace kforecast::cuda {

struct NvrtcInfo {
  std::string library_path;
  NvrtcVersion version;
  std::vector<int> supported_archs;  // compute capabilities, e.g. 90 for sm_90
};

struct DriverInfo {
  std::string library_path;
  DriverVersion version;
  std::optional<std::string> package_version;  // "580.159.04", from NVML where present
  std::vector<DeviceInfo> devices;             // never empty: no device is Unavailable
};

struct CudaStatus {
  std::expected<NvrtcInfo, Unavailable> nvrtc;
  std::expected<DriverInfo, Unavailable> driver;
};

// Loads NVRTC and the driver from the usual places and asks each what it has.
CudaStatus probe_cuda(const LoaderOptions& options, const EnvLookup& env);

// The same from loaders already run (or fakes); the seam the tests use.
CudaStatus probe_cuda(const LoadedCompiler& compiler, const LoadedDriver& driver,
                      std::optional<std::string> driver_package_version = std::nullopt);

// {"nvrtc", "13.0 at /usr/local/cuda/lib64/libnvrtc.so.13 (sm_75 ... sm_120)"},
// {"driver", "CUDA 12.8 driver API at /usr/lib/x86_64-linux-gnu/libcuda.so.1"}, {"gpu 0", "NVIDIA H100 ..."}, or
// {"gpu", "none: <why, and the fix>"}.
std::vector<StatusLine> describe_cuda_status(const CudaStatus& status);

// "NVIDIA H100 80GB HBM3, sm_90, 132 SMs, 79.2 GiB, L2 50.0 MiB, 227 KiB shared per block".
std::string describe_device(const DeviceInfo& device);

}  // namespace kforecast::cuda
