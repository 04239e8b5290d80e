// SPDX-License-Identifier: Apache-2.0
#pragma once

// NVML, which the NVIDIA driver installs beside libcuda, loaded at run time like the rest. The
// driver API only knows the CUDA version it supports ("13.0"); NVML knows the driver's own
// ("580.159.04"), which is what a user compares with nvidia-smi and release notes.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace kforecast::cuda {

// The driver's version, or nullopt where NVML is absent or fails (it is supplementary: nothing
// depends on it).
std::optional<std::string> nvidia_driver_version();

// What a benchmark records per block: clocks and why they are held down. Zero: not reported.
struct ClockReading {
  unsigned sm_mhz = 0;
  unsigned memory_mhz = 0;
  // nvmlDeviceGetCurrentClocksThrottleReasons' bits (nvml.h): 0x1 idle, 0x4 power cap,
  // 0x20 software thermal, 0x40 hardware thermal, 0x8 hardware slowdown, ...
  std::uint64_t throttle_reasons = 0;
  unsigned temperature_c = 0;
};

// One GPU as NVML sees it, found by PCI bus id (NVML's order may differ from CUDA's).
class NvmlDevice {
 public:
  // nullptr where NVML is absent or does not know the device.
  static std::unique_ptr<NvmlDevice> open(const std::string& pci_bus_id);
  ~NvmlDevice();
  NvmlDevice(const NvmlDevice&) = delete;
  NvmlDevice& operator=(const NvmlDevice&) = delete;

  ClockReading read() const;

 private:
  struct State;
  explicit NvmlDevice(std::unique_ptr<State> state);
  std::unique_ptr<State> m_state;
};

}  // namespace kforecast::cuda
