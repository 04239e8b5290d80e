// SPDX-License-Identifier: Apache-2.0
#pragma once

// An in-memory Driver for tests: the GPUs it reports and the failures it returns are set by the
// test. Also used by `doctor`'s tests, so it lives with the real driver.

#include <optional>
#include <string>
#include <vector>

#include "cuda/driver.hpp"

namespace kforecast::cuda {

class FakeDriver final : public Driver {
 public:
  explicit FakeDriver(std::vector<DeviceInfo> devices = {}, DriverVersion version = {12, 8})
      : m_devices(std::move(devices)), m_version(version) {}

  std::string library_path() const override { return m_path; }
  DriverVersion version() const override { return m_version; }
  Result<std::vector<DeviceInfo>> devices() const override {
    if (m_devices_error) return std::unexpected(*m_devices_error);
    return m_devices;
  }
  Result<void> check_context(int ordinal) const override {
    if (m_context_error) return std::unexpected(*m_context_error);
    if (ordinal < 0 || ordinal >= static_cast<int>(m_devices.size()))
      return fail(ExitCode::could_not_run, "no device " + std::to_string(ordinal));
    return {};
  }

  void set_library_path(std::string path) { m_path = std::move(path); }
  void fail_devices(Error error) { m_devices_error = std::move(error); }
  void fail_context(Error error) { m_context_error = std::move(error); }

 private:
  std::vector<DeviceInfo> m_devices;
  DriverVersion m_version;
  std::string m_path = "/usr/lib/x86_64-linux-gnu/libcuda.so.1";
  std::optional<Error> m_devices_error;
  std::optional<Error> m_context_error;
};

// A device as an H100 SXM reports itself, for tests that need a plausible GPU.
inline DeviceInfo fake_h100(int ordinal = 0) {
  DeviceInfo device;
  device.ordinal = ordinal;
  device.name = "NVIDIA H100 80GB HBM3";
  device.compute_major = 9;
  device.compute_minor = 0;
  device.sm_count = 132;
  device.total_memory_bytes = 85'045'051'392;
  device.clock_rate_khz = 1'980'000;
  device.memory_clock_rate_khz = 2'619'000;
  device.memory_bus_width_bits = 5120;
  device.l2_cache_bytes = 52'428'800;
  device.max_shared_per_block_optin_bytes = 232'448;
  device.max_shared_per_sm_bytes = 233'472;
  device.registers_per_sm = 65'536;
  device.max_threads_per_sm = 2048;
  return device;
}

}  // namespace kforecast::cuda
