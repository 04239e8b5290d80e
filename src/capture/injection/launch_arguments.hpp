// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a kernel launch passed the driver, read from the arguments of the driver call that CUPTI
// hands the injection library (cuLaunchKernel, cuLaunchCooperativeKernel, cuLaunchKernelEx and
// their per-thread-stream forms): the stream, the launch's shape and its parameters.

#include <cstddef>
#include <optional>
#include <vector>

#include "capture/injection/cupti_api.hpp"
#include "capture/injection/launch_record.hpp"
#include "capture/injection/parameter_layout.hpp"

namespace kforecast::capture::injection {

struct LaunchArguments {
  CUstream stream = nullptr;  // a _ptsz call's null stream is per_thread_stream
  LaunchShape shape;
  void** kernel_params = nullptr;
  void** extra = nullptr;
};

// `params` as CUPTI gives it for the driver call `id`; all empty where cuLaunchKernelEx had no
// config (the driver refuses that launch).
LaunchArguments launch_arguments(DriverCallback id, const void* params);

// Reads the parameter of `slot` from the launch: kernelParams[ordinal] points at its bytes, or
// `extra` passes one buffer that the slot's offset indexes; nullopt where neither holds it.
std::optional<std::vector<std::byte>> parameter_bytes(const LaunchArguments& launch, const ParameterSlot& slot);

}  // namespace kforecast::capture::injection
