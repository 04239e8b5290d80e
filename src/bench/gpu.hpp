// SPDX-License-Identifier: Apache-2.0
#pragma once

// One GPU, held for a measurement: its primary context made current, one stream, the device
// memory and events it hands out (all released with it), and NVML's clocks where NVML is there.
// Every call goes through KF_CU_CALL, so a fault reads as the call and the result that failed
// ("cuStreamSynchronize(m_stream) failed: CUDA_ERROR_ILLEGAL_ADDRESS").

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/nvml.hpp"

namespace kforecast::bench {

struct LaunchShape {
  std::array<std::uint32_t, 3> grid{1, 1, 1};
  std::array<std::uint32_t, 3> block{1, 1, 1};
  std::uint32_t shared_bytes = 0;
};

class Gpu {
 public:
  static Result<std::unique_ptr<Gpu>> open(const cuda::CudaDriver& driver, int ordinal);
  // The same through any table of entry points: the real driver's, or a simulated device's in
  // tests (tests/support/fake_device.hpp). `device.ordinal` is the device opened.
  static Result<std::unique_ptr<Gpu>> open(const cuda::DriverApi& api, cuda::DeviceInfo device);
  ~Gpu();
  Gpu(const Gpu&) = delete;
  Gpu& operator=(const Gpu&) = delete;

  const cuda::DeviceInfo& device() const { return m_device; }
  bool has_clocks() const { return m_nvml != nullptr; }
  cuda::ClockReading clocks() const { return m_nvml ? m_nvml->read() : cuda::ClockReading{}; }

  // Loads a CUBIN (kept loaded until the Gpu goes) and returns the function named `lowered_name`,
  // with its dynamic shared memory limit raised to `shared_bytes` where that is above 48 KiB.
  Result<cuda::CUfunction> load_function(std::span<const std::byte> cubin, const std::string& lowered_name,
                                         std::uint32_t shared_bytes = 0);

  Result<cuda::CUdeviceptr> allocate(std::size_t bytes);
  Result<void> upload(cuda::CUdeviceptr destination, std::span<const std::byte> bytes);
  Result<void> download(std::span<std::byte> destination, cuda::CUdeviceptr source);
  Result<void> copy_async(cuda::CUdeviceptr destination, cuda::CUdeviceptr source, std::size_t bytes);
  Result<void> fill_async(cuda::CUdeviceptr destination, std::byte value, std::size_t bytes);
  Result<void> launch(cuda::CUfunction function, const LaunchShape& shape, void** parameters);
  // `count` launches of one kernel captured into a graph (kept until the Gpu goes), so a sample's
  // launches reach the GPU as one submission and run back to back with no host in between.
  Result<cuda::CUgraphExec> capture_launches(cuda::CUfunction function, const LaunchShape& shape, void** parameters,
                                             int count);
  Result<void> launch_graph(cuda::CUgraphExec graph);
  Result<void> synchronize();
  std::size_t free_memory() const;

  // Events, created once and reused: event(i) for i < count.
  Result<void> reserve_events(std::size_t count);
  cuda::CUevent event(std::size_t index) const { return m_events[index]; }
  Result<void> record(cuda::CUevent event);
  Result<float> elapsed_ms(cuda::CUevent start, cuda::CUevent end);

 private:
  Gpu(const cuda::DriverApi& api, cuda::CUdevice device);
  const cuda::DriverApi& m_api;
  cuda::CUdevice m_ordinal = 0;
  cuda::DeviceInfo m_device;
  cuda::CUstream m_stream = nullptr;
  std::vector<cuda::CUmodule> m_modules;
  std::vector<cuda::CUdeviceptr> m_allocations;
  std::vector<cuda::CUevent> m_events;
  std::vector<cuda::CUgraphExec> m_graphs;
  std::unique_ptr<cuda::NvmlDevice> m_nvml;
  bool m_retained = false;
};

}  // namespace kforecast::bench
