// SPDX-License-Identifier: Apache-2.0
#include "capture/injection/launch_arguments.hpp"

#include <cstdint>

namespace kforecast::capture::injection {

LaunchArguments launch_arguments(DriverCallback id, const void* params) {
  LaunchArguments launch;
  switch (id) {
    case DriverCallback::cuLaunchKernel:
    case DriverCallback::cuLaunchKernel_ptsz: {
      const auto& p = *static_cast<const cuLaunchKernel_params*>(params);
      launch = {p.hStream,
                {{p.gridDimX, p.gridDimY, p.gridDimZ}, {p.blockDimX, p.blockDimY, p.blockDimZ}, p.sharedMemBytes},
                p.kernelParams,
                p.extra};
      break;
    }
    case DriverCallback::cuLaunchCooperativeKernel:
    case DriverCallback::cuLaunchCooperativeKernel_ptsz: {
      const auto& p = *static_cast<const cuLaunchCooperativeKernel_params*>(params);
      launch = {p.hStream,
                {{p.gridDimX, p.gridDimY, p.gridDimZ}, {p.blockDimX, p.blockDimY, p.blockDimZ}, p.sharedMemBytes},
                p.kernelParams,
                nullptr};
      break;
    }
    default: {  // cuLaunchKernelEx and its _ptsz
      const auto& p = *static_cast<const cuLaunchKernelEx_params*>(params);
      if (p.config == nullptr) return launch;  // the driver refuses it; nothing to record
      const LaunchConfig& c = *p.config;
      launch = {c.stream,
                {{c.grid_x, c.grid_y, c.grid_z}, {c.block_x, c.block_y, c.block_z}, c.shared_bytes},
                p.kernelParams,
                p.extra};
      break;
    }
  }
  const bool per_thread = id == DriverCallback::cuLaunchKernel_ptsz || id == DriverCallback::cuLaunchKernelEx_ptsz ||
                          id == DriverCallback::cuLaunchCooperativeKernel_ptsz;
  if (per_thread && launch.stream == nullptr) launch.stream = per_thread_stream;
  return launch;
}

std::optional<std::vector<std::byte>> parameter_bytes(const LaunchArguments& launch, const ParameterSlot& slot) {
  const std::byte* source = nullptr;
  if (launch.kernel_params != nullptr) {
    source = static_cast<const std::byte*>(launch.kernel_params[slot.ordinal]);
  } else if (launch.extra != nullptr) {
    const std::byte* buffer = nullptr;
    std::size_t size = 0;
    for (void** at = launch.extra; reinterpret_cast<std::uintptr_t>(*at) != launch_param_end; at += 2) {
      const auto key = reinterpret_cast<std::uintptr_t>(at[0]);
      if (key == launch_param_buffer_pointer) buffer = static_cast<const std::byte*>(at[1]);
      if (key == launch_param_buffer_size) size = *static_cast<const std::size_t*>(at[1]);
    }
    if (buffer == nullptr || std::size_t{slot.offset} + slot.size > size) return std::nullopt;
    source = buffer + slot.offset;
  }
  if (source == nullptr) return std::nullopt;
  return std::vector<std::byte>(source, source + slot.size);
}

}  // namespace kforecast::capture::injection
