// SPDX-License-Identifier: Apache-2.0
#pragma once

// NVML, which the NVIDIA driver installs beside libcuda, loaded at run time like the rest. The
// driver API only knows the CUDA version it supports ("13.0"); NVML knows the driver's own
// ("580.159.04"), which is what a user compares with nvidia-smi and release notes.

#include <optional>
#include <string>

namespace kforecast::cuda {

// The driver's version, or nullopt where NVML is absent or fails (it is supplementary: nothing
// depends on it).
std::optional<std::string> nvidia_driver_version();

}  // namespace kforecast::cuda
