// SPDX-License-Identifier: Apache-2.0
#include "forecasters/local_hardware.hpp"

namespace kforecast::forecasters {
namespace {

std::string architecture(int major, int minor) {
  switch (major) {
    case 7:
      return minor >= 5 ? "Turing" : "Volta";
    case 8:
      return minor == 9 ? "Ada Lovelace" : "Ampere";
    case 9:
      return "Hopper";
    case 10:
    case 12:
      return "Blackwell";
    default:
      return "compute capability " + std::to_string(major) + "." + std::to_string(minor);
  }
}

}  // namespace

llm::GpuProperties local_hardware_properties(const cuda::DeviceInfo& device) {
  llm::GpuProperties gpu;
  gpu.name = "local";
  gpu.full_name = device.name + " (queried from the local driver)";
  gpu.architecture = architecture(device.compute_major, device.compute_minor);
  gpu.arch = device.arch();
  gpu.multiprocessors = device.sm_count;
  gpu.boost_clock_ghz = device.clock_rate_khz / 1e6;
  gpu.memory_gib = static_cast<double>(device.total_memory_bytes) / (1024.0 * 1024 * 1024);
  // Double data rate: two transfers per memory clock over the bus width.
  gpu.memory_bandwidth_gbs = 2.0 * device.memory_clock_rate_khz * 1e3 * (device.memory_bus_width_bits / 8.0) / 1e9;
  gpu.l2_cache_mib = static_cast<double>(device.l2_cache_bytes) / (1024.0 * 1024);
  gpu.shared_memory_per_sm_kib = static_cast<int>(device.max_shared_per_sm_bytes / 1024);
  gpu.registers_per_sm = device.registers_per_sm;
  gpu.max_threads_per_sm = device.max_threads_per_sm;
  return gpu;
}

}  // namespace kforecast::forecasters
