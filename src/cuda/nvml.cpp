// SPDX-License-Identifier: Apache-2.0
#include "cuda/nvml.hpp"

#include <array>

#include "cuda/dynamic_library.hpp"

namespace kforecast::cuda {
namespace {

// From nvml.h (stable ABI): nvmlReturn_t is an int, NVML_SUCCESS is 0, and
// NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE is 80.
using nvmlReturn_t = int;
constexpr nvmlReturn_t nvml_success = 0;
constexpr unsigned driver_version_buffer = 80;

using nvmlDevice_t = struct nvmlDevice_st*;
constexpr int nvml_clock_sm = 1;      // NVML_CLOCK_SM
constexpr int nvml_clock_memory = 2;  // NVML_CLOCK_MEM
constexpr int nvml_temperature_gpu = 0;

struct NvmlApi {
  nvmlReturn_t (*nvmlInit_v2)() = nullptr;
  nvmlReturn_t (*nvmlSystemGetDriverVersion)(char*, unsigned) = nullptr;
  nvmlReturn_t (*nvmlShutdown)() = nullptr;
};

struct NvmlDeviceApi {
  nvmlReturn_t (*nvmlDeviceGetHandleByPciBusId_v2)(const char*, nvmlDevice_t*) = nullptr;
  nvmlReturn_t (*nvmlDeviceGetClockInfo)(nvmlDevice_t, int, unsigned*) = nullptr;
  nvmlReturn_t (*nvmlDeviceGetCurrentClocksThrottleReasons)(nvmlDevice_t, unsigned long long*) = nullptr;
  nvmlReturn_t (*nvmlDeviceGetTemperature)(nvmlDevice_t, int, unsigned*) = nullptr;
};

}  // namespace

std::optional<std::string> nvidia_driver_version() {
  auto library = DynamicLibrary::open("libnvidia-ml.so.1");
  if (!library) return std::nullopt;
  NvmlApi api;
  const std::string missing =
      first_unbound({KF_BIND(*library, api, nvmlInit_v2), KF_BIND(*library, api, nvmlSystemGetDriverVersion),
                     KF_BIND(*library, api, nvmlShutdown)});
  if (!missing.empty() || api.nvmlInit_v2() != nvml_success) return std::nullopt;
  std::array<char, driver_version_buffer> buffer{};
  const bool ok = api.nvmlSystemGetDriverVersion(buffer.data(), driver_version_buffer) == nvml_success;
  api.nvmlShutdown();
  if (!ok) return std::nullopt;
  buffer.back() = '\0';
  return std::string(buffer.data());
}

struct NvmlDevice::State {
  DynamicLibrary library;
  NvmlApi api;
  NvmlDeviceApi device_api;
  nvmlDevice_t device = nullptr;
};

NvmlDevice::NvmlDevice(std::unique_ptr<State> state) : m_state(std::move(state)) {}

NvmlDevice::~NvmlDevice() { m_state->api.nvmlShutdown(); }

std::unique_ptr<NvmlDevice> NvmlDevice::open(const std::string& pci_bus_id) {
  auto library = DynamicLibrary::open("libnvidia-ml.so.1");
  if (!library) return nullptr;
  auto state = std::unique_ptr<State>(new State{std::move(*library), {}, {}, nullptr});
  const std::string missing = first_unbound(
      {KF_BIND(state->library, state->api, nvmlInit_v2), KF_BIND(state->library, state->api, nvmlShutdown),
       KF_BIND(state->library, state->api, nvmlSystemGetDriverVersion),
       KF_BIND(state->library, state->device_api, nvmlDeviceGetHandleByPciBusId_v2),
       KF_BIND(state->library, state->device_api, nvmlDeviceGetClockInfo),
       KF_BIND(state->library, state->device_api, nvmlDeviceGetCurrentClocksThrottleReasons),
       KF_BIND(state->library, state->device_api, nvmlDeviceGetTemperature)});
  if (!missing.empty() || state->api.nvmlInit_v2() != nvml_success) return nullptr;
  if (state->device_api.nvmlDeviceGetHandleByPciBusId_v2(pci_bus_id.c_str(), &state->device) != nvml_success) {
    state->api.nvmlShutdown();
    return nullptr;
  }
  return std::unique_ptr<NvmlDevice>(new NvmlDevice(std::move(state)));
}

ClockReading NvmlDevice::read() const {
  ClockReading reading;
  const auto& api = m_state->device_api;
  if (api.nvmlDeviceGetClockInfo(m_state->device, nvml_clock_sm, &reading.sm_mhz) != nvml_success) reading.sm_mhz = 0;
  if (api.nvmlDeviceGetClockInfo(m_state->device, nvml_clock_memory, &reading.memory_mhz) != nvml_success)
    reading.memory_mhz = 0;
  unsigned long long reasons = 0;
  if (api.nvmlDeviceGetCurrentClocksThrottleReasons(m_state->device, &reasons) == nvml_success)
    reading.throttle_reasons = reasons;
  if (api.nvmlDeviceGetTemperature(m_state->device, nvml_temperature_gpu, &reading.temperature_c) != nvml_success)
    reading.temperature_c = 0;
  return reading;
}

}  // namespace kforecast::cuda
