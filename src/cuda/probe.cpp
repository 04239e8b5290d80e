// SPDX-License-Identifier: Apache-2.0
#include "cuda/probe.hpp"

#include <fmt/format.h>

#include "cuda/cuda_driver.hpp"
#include "cuda/nvml.hpp"
#include "cuda/nvrtc.hpp"

namespace kforecast::cuda {

CudaStatus probe_cuda(const LoaderOptions& options, const EnvLookup& env) {
  auto driver = load_driver(options);
  return probe_cuda(load_nvrtc(options, env), driver, driver ? nvidia_driver_version() : std::nullopt);
}

CudaStatus probe_cuda(const LoadedCompiler& compiler, const LoadedDriver& driver,
                      std::optional<std::string> driver_package_version) {
  CudaStatus status;
  if (compiler)
    status.nvrtc = NvrtcInfo{(*compiler)->library_path(), (*compiler)->version(), (*compiler)->supported_archs()};
  else
    status.nvrtc = std::unexpected(compiler.error());

  if (!driver) {
    status.driver = std::unexpected(driver.error());
    return status;
  }
  const Driver& loaded = **driver;
  auto devices = loaded.devices();
  const std::string version = loaded.version().text();
  if (!devices) {
    status.driver =
        std::unexpected(Unavailable{"CUDA driver " + version + " could not list devices: " + devices.error().message,
                                    "benchmarks skipped",
                                    "check the driver with nvidia-smi",
                                    {}});
  } else if (devices->empty()) {
    status.driver = std::unexpected(Unavailable{"CUDA driver " + version + " reports no device",
                                                "benchmarks skipped",
                                                "check CUDA_VISIBLE_DEVICES or run on a GPU runner",
                                                {}});
  } else {
    status.driver =
        DriverInfo{loaded.library_path(), loaded.version(), std::move(driver_package_version), std::move(*devices)};
  }
  return status;
}

std::string describe_device(const DeviceInfo& device) {
  constexpr double kib = 1024.0;
  std::string text = fmt::format("{}, {}, {} SMs, {:.1f} GiB", device.name, device.arch(), device.sm_count,
                                 static_cast<double>(device.total_memory_bytes) / (kib * kib * kib));
  if (device.l2_cache_bytes > 0)
    text += fmt::format(", L2 {:.1f} MiB", static_cast<double>(device.l2_cache_bytes) / (kib * kib));
  if (device.max_shared_per_block_optin_bytes > 0)
    text += fmt::format(", {} KiB shared per block", device.max_shared_per_block_optin_bytes / 1024);
  return text;
}

std::vector<StatusLine> describe_cuda_status(const CudaStatus& status) {
  std::vector<StatusLine> lines;
  if (status.nvrtc) {
    std::string text = fmt::format("{} at {}", status.nvrtc->version.text(), status.nvrtc->library_path);
    const auto& archs = status.nvrtc->supported_archs;
    if (!archs.empty()) text += fmt::format(" (sm_{} ... sm_{})", archs.front(), archs.back());
    lines.push_back({"nvrtc", std::move(text)});
  } else {
    lines.push_back({"nvrtc", "not available: " + status.nvrtc.error().message()});
  }
  if (status.driver) {
    const auto& package = status.driver->package_version;
    lines.push_back({"driver", fmt::format("{}CUDA {} driver API at {}", package ? *package + ", " : "",
                                           status.driver->version.text(), status.driver->library_path)});
    for (const auto& device : status.driver->devices)
      lines.push_back({fmt::format("gpu {}", device.ordinal), describe_device(device)});
  } else {
    lines.push_back({"gpu", "none: " + status.driver.error().message()});
  }
  return lines;
}

}  // namespace kforecast::cuda
