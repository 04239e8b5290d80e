// SPDX-License-Identifier: Apache-2.0
#pragma once

// A simulated GPU behind cuda::DriverApi, for running the benchmark runner (bench::Gpu,
// measure_pair) without one. Device memory is host memory: allocations sit back to back at
// cuMemAlloc's 256-byte alignment, as a real allocator places them, so a store a little past one
// lands in the next, and a store outside every allocation is an illegal address (sticky, like
// the real one: every later call fails with it). Kernels are host functions the test defines by
// name; each launch runs one at once (the stream is synchronous), or records it while a graph is
// being captured. Events read a clock that each launch advances by its kernel's duration.
// The entry points are plain C function pointers, so they reach the device through a static:
// one FakeDevice at a time per process.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cuda/driver.hpp"
#include "cuda/driver_api.hpp"

namespace kforecast::testing {

inline constexpr cuda::CUresult fake_illegal_address = 700;  // CUDA_ERROR_ILLEGAL_ADDRESS
inline constexpr cuda::CUresult fake_not_found = 500;        // CUDA_ERROR_NOT_FOUND

class FakeDevice;

// What a simulated kernel sees: its arguments and the device's memory.
class FakeLaunch {
 public:
  FakeLaunch(FakeDevice& device, void** parameters, unsigned threads)
      : m_device(device), m_parameters(parameters), m_threads(threads) {}

  // Argument `index` by value, as cuLaunchKernel passes it (a buffer is its CUdeviceptr).
  template <class T>
  T argument(std::size_t index) const {
    T value{};
    std::memcpy(&value, m_parameters[index], sizeof value);
    return value;
  }
  unsigned threads() const { return m_threads; }  // grid times block

  // Element access: outside every allocation the launch faults and the access does nothing.
  template <class T>
  T load(cuda::CUdeviceptr address) const;
  template <class T>
  void store(cuda::CUdeviceptr address, T value);

 private:
  FakeDevice& m_device;
  void** m_parameters;
  unsigned m_threads;
};

class FakeDevice {
 public:
  using Kernel = std::function<void(FakeLaunch&)>;

  explicit FakeDevice(cuda::DeviceInfo info);
  ~FakeDevice();
  FakeDevice(const FakeDevice&) = delete;
  FakeDevice& operator=(const FakeDevice&) = delete;

  const cuda::DriverApi& api() const { return m_api; }
  const cuda::DeviceInfo& info() const { return m_info; }

  // cuModuleGetFunction(`name`) finds this kernel, whatever module was loaded; each launch runs
  // it and advances the event clock by `milliseconds`.
  void define_kernel(const std::string& name, Kernel kernel, double milliseconds = 0.05);
  int launches(const std::string& name) const;

  // Device memory, for kernels and tests: false (and a fault, for kernels) outside every
  // allocation.
  bool read(cuda::CUdeviceptr address, void* destination, std::size_t bytes) const;
  bool write(cuda::CUdeviceptr address, const void* source, std::size_t bytes);
  void fault() { m_sticky = fake_illegal_address; }

  // The entry points' side, public so the C functions in fake_device.cpp reach it.
  struct Allocation {
    std::vector<std::byte> bytes;
  };
  struct DefinedKernel {
    std::string name;
    Kernel kernel;
    double milliseconds = 0;
    int launches = 0;
  };
  struct RecordedLaunch {
    std::size_t kernel = 0;
    void** parameters = nullptr;
    unsigned threads = 0;
  };
  cuda::CUresult allocate(cuda::CUdeviceptr* pointer, std::size_t bytes);
  cuda::CUresult launch(std::size_t kernel, void** parameters, unsigned threads);
  Allocation* allocation_at(cuda::CUdeviceptr address, std::size_t bytes, std::size_t& offset);

  cuda::DriverApi m_api;
  cuda::DeviceInfo m_info;
  std::map<cuda::CUdeviceptr, Allocation> m_memory;  // by base address
  cuda::CUdeviceptr m_next_address = 0x7f0000000000ULL;
  std::vector<DefinedKernel> m_kernels;
  std::vector<double> m_event_times;  // per event: the clock when last recorded
  double m_clock_ms = 0;
  bool m_capturing = false;
  std::vector<RecordedLaunch> m_captured;
  std::vector<std::vector<RecordedLaunch>> m_graphs;  // a graph and its executable share an index
  cuda::CUresult m_sticky = cuda::CUDA_SUCCESS;
};

template <class T>
T FakeLaunch::load(cuda::CUdeviceptr address) const {
  T value{};
  if (!m_device.read(address, &value, sizeof value)) m_device.fault();
  return value;
}

template <class T>
void FakeLaunch::store(cuda::CUdeviceptr address, T value) {
  if (!m_device.write(address, &value, sizeof value)) m_device.fault();
}

}  // namespace kforecast::testing
