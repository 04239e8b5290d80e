// SPDX-License-Identifier: Apache-2.0
#include "support/fake_device.hpp"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <stdexcept>

namespace kforecast::testing {
namespace {

using namespace kforecast::cuda;

FakeDevice* current = nullptr;

// Handles are indices + 1 in disguise: never null, and back to an index without a table.
template <class Handle>
Handle handle_of(std::size_t index) {
  return reinterpret_cast<Handle>(static_cast<std::uintptr_t>(index + 1));
}
template <class Handle>
std::size_t index_of(Handle handle) {
  return static_cast<std::size_t>(reinterpret_cast<std::uintptr_t>(handle)) - 1;
}

FakeDevice& device() { return *current; }

CUresult error_name(CUresult code, const char** name) {
  switch (code) {
    case CUDA_SUCCESS: *name = "CUDA_SUCCESS"; return CUDA_SUCCESS;
    case 1: *name = "CUDA_ERROR_INVALID_VALUE"; return CUDA_SUCCESS;
    case fake_not_found: *name = "CUDA_ERROR_NOT_FOUND"; return CUDA_SUCCESS;
    case fake_illegal_address: *name = "CUDA_ERROR_ILLEGAL_ADDRESS"; return CUDA_SUCCESS;
    default: return 1;
  }
}

CUresult ok() { return device().m_sticky; }

CUresult copy(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes) {
  if (ok() != CUDA_SUCCESS) return ok();
  std::vector<std::byte> staging(bytes);
  if (!device().read(source, staging.data(), bytes) || !device().write(destination, staging.data(), bytes)) return 1;
  return CUDA_SUCCESS;
}

DriverApi fake_api() {
  DriverApi api;
  api.cuGetErrorName = error_name;
  api.cuDeviceGet = [](CUdevice* device, int ordinal) -> CUresult {
    *device = ordinal;
    return CUDA_SUCCESS;
  };
  api.cuDevicePrimaryCtxRetain = [](CUcontext* context, CUdevice) -> CUresult {
    *context = handle_of<CUcontext>(0);
    return CUDA_SUCCESS;
  };
  api.cuDevicePrimaryCtxRelease_v2 = [](CUdevice) -> CUresult { return CUDA_SUCCESS; };
  api.cuCtxSetCurrent = [](CUcontext) -> CUresult { return CUDA_SUCCESS; };
  api.cuDeviceGetPCIBusId = [](char*, int, CUdevice) -> CUresult { return 1; };  // no NVML for it
  api.cuCtxSynchronize = []() -> CUresult { return ok(); };
  api.cuMemGetInfo_v2 = [](std::size_t* free, std::size_t* total) -> CUresult {
    *free = *total = std::size_t{1} << 30;
    return CUDA_SUCCESS;
  };
  api.cuModuleLoadData = [](CUmodule* module, const void*) -> CUresult {
    *module = handle_of<CUmodule>(0);
    return ok();
  };
  api.cuModuleUnload = [](CUmodule) -> CUresult { return CUDA_SUCCESS; };
  api.cuModuleGetFunction = [](CUfunction* function, CUmodule, const char* name) -> CUresult {
    for (std::size_t i = 0; i < device().m_kernels.size(); ++i)
      if (device().m_kernels[i].name == name) {
        *function = handle_of<CUfunction>(i);
        return ok();
      }
    return fake_not_found;
  };
  api.cuFuncSetAttribute = [](CUfunction, int, int) -> CUresult { return ok(); };
  api.cuMemAlloc_v2 = [](CUdeviceptr* pointer, std::size_t bytes) -> CUresult {
    return device().allocate(pointer, bytes);
  };
  api.cuMemFree_v2 = [](CUdeviceptr pointer) -> CUresult {
    device().m_memory.erase(pointer);
    return CUDA_SUCCESS;
  };
  api.cuMemcpyHtoDAsync_v2 = [](CUdeviceptr destination, const void* source, std::size_t bytes,
                                 CUstream stream) -> CUresult {
    if (ok() != CUDA_SUCCESS) return ok();
    // The legacy stream (null) would not order the copy before the runner's non-blocking stream.
    if (stream == nullptr) return 1;  // CUDA_ERROR_INVALID_VALUE
    return device().write(destination, source, bytes) ? CUDA_SUCCESS : 1;
  };
  api.cuMemcpyDtoH_v2 = [](void* destination, CUdeviceptr source, std::size_t bytes) -> CUresult {
    if (ok() != CUDA_SUCCESS) return ok();
    return device().read(source, destination, bytes) ? CUDA_SUCCESS : 1;
  };
  api.cuMemcpyDtoDAsync_v2 = [](CUdeviceptr destination, CUdeviceptr source, std::size_t bytes, CUstream) {
    return copy(destination, source, bytes);
  };
  api.cuMemsetD8Async = [](CUdeviceptr destination, unsigned char value, std::size_t count, CUstream) -> CUresult {
    if (ok() != CUDA_SUCCESS) return ok();
    const std::vector<unsigned char> bytes(count, value);
    return device().write(destination, bytes.data(), count) ? CUDA_SUCCESS : 1;
  };
  api.cuLaunchKernel = [](CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                          unsigned block_y, unsigned block_z, unsigned, CUstream, void** parameters,
                          void**) -> CUresult {
    return device().launch(index_of(function), parameters, grid_x * grid_y * grid_z * block_x * block_y * block_z);
  };
  api.cuStreamCreate = [](CUstream* stream, unsigned) -> CUresult {
    *stream = handle_of<CUstream>(0);
    return CUDA_SUCCESS;
  };
  api.cuStreamDestroy_v2 = [](CUstream) -> CUresult { return CUDA_SUCCESS; };
  api.cuStreamSynchronize = [](CUstream) -> CUresult { return ok(); };
  api.cuEventCreate = [](CUevent* event, unsigned) -> CUresult {
    device().m_event_times.push_back(0);
    *event = handle_of<CUevent>(device().m_event_times.size() - 1);
    return ok();
  };
  api.cuEventDestroy_v2 = [](CUevent) -> CUresult { return CUDA_SUCCESS; };
  api.cuEventRecord = [](CUevent event, CUstream) -> CUresult {
    device().m_event_times.at(index_of(event)) = device().m_clock_ms;
    return ok();
  };
  api.cuEventSynchronize = [](CUevent) -> CUresult { return ok(); };
  api.cuEventElapsedTime = [](float* milliseconds, CUevent start, CUevent end) -> CUresult {
    *milliseconds =
        static_cast<float>(device().m_event_times.at(index_of(end)) - device().m_event_times.at(index_of(start)));
    return ok();
  };
  api.cuStreamBeginCapture_v2 = [](CUstream, int) -> CUresult {
    device().m_capturing = true;
    device().m_captured.clear();
    return ok();
  };
  api.cuStreamEndCapture = [](CUstream, CUgraph* graph) -> CUresult {
    device().m_capturing = false;
    device().m_graphs.push_back(std::move(device().m_captured));
    *graph = handle_of<CUgraph>(device().m_graphs.size() - 1);
    return ok();
  };
  api.cuGraphInstantiateWithFlags = [](CUgraphExec* executable, CUgraph graph, unsigned long long) -> CUresult {
    *executable = handle_of<CUgraphExec>(index_of(graph));
    return ok();
  };
  api.cuGraphLaunch = [](CUgraphExec executable, CUstream) -> CUresult {
    for (const auto& launch : device().m_graphs.at(index_of(executable)))
      if (auto result = device().launch(launch.kernel, launch.parameters, launch.threads); result != CUDA_SUCCESS)
        return result;
    return CUDA_SUCCESS;
  };
  api.cuGraphExecDestroy = [](CUgraphExec) -> CUresult { return CUDA_SUCCESS; };
  api.cuGraphDestroy = [](CUgraph) -> CUresult { return CUDA_SUCCESS; };
  return api;
}

}  // namespace

FakeDevice::FakeDevice(DeviceInfo info) : m_api(fake_api()), m_info(std::move(info)) {
  if (current != nullptr) throw std::logic_error("one FakeDevice at a time");
  current = this;
}

FakeDevice::~FakeDevice() { current = nullptr; }

void FakeDevice::define_kernel(const std::string& name, Kernel kernel, double milliseconds) {
  m_kernels.push_back({name, std::move(kernel), milliseconds, 0});
}

int FakeDevice::launches(const std::string& name) const {
  for (const auto& kernel : m_kernels)
    if (kernel.name == name) return kernel.launches;
  return 0;
}

FakeDevice::Allocation* FakeDevice::allocation_at(CUdeviceptr address, std::size_t bytes, std::size_t& offset) {
  auto after = m_memory.upper_bound(address);
  if (after == m_memory.begin()) return nullptr;
  auto& [base, allocation] = *std::prev(after);
  offset = static_cast<std::size_t>(address - base);
  if (offset > allocation.bytes.size() || bytes > allocation.bytes.size() - offset) return nullptr;
  return &allocation;
}

bool FakeDevice::read(CUdeviceptr address, void* destination, std::size_t bytes) const {
  std::size_t offset = 0;
  auto* allocation = const_cast<FakeDevice*>(this)->allocation_at(address, bytes, offset);
  if (allocation == nullptr) return false;
  std::memcpy(destination, allocation->bytes.data() + offset, bytes);
  return true;
}

bool FakeDevice::write(CUdeviceptr address, const void* source, std::size_t bytes) {
  std::size_t offset = 0;
  auto* allocation = allocation_at(address, bytes, offset);
  if (allocation == nullptr) return false;
  std::memcpy(allocation->bytes.data() + offset, source, bytes);
  return true;
}

CUresult FakeDevice::allocate(CUdeviceptr* pointer, std::size_t bytes) {
  if (m_sticky != CUDA_SUCCESS) return m_sticky;
  // Rounded up as the real allocator does (the padding is addressable), and the next allocation
  // starts right after it.
  const std::size_t rounded = std::max<std::size_t>((bytes + 255) / 256 * 256, 256);
  *pointer = m_next_address;
  m_memory[m_next_address].bytes.assign(rounded, std::byte{0});
  m_next_address += rounded;
  return CUDA_SUCCESS;
}

CUresult FakeDevice::launch(std::size_t kernel, void** parameters, unsigned threads) {
  if (m_sticky != CUDA_SUCCESS) return m_sticky;
  if (kernel >= m_kernels.size()) return 1;
  if (m_capturing) {
    m_captured.push_back({kernel, parameters, threads});
    return CUDA_SUCCESS;
  }
  auto& defined = m_kernels[kernel];
  ++defined.launches;
  FakeLaunch launch(*this, parameters, threads);
  defined.kernel(launch);
  m_clock_ms += defined.milliseconds;
  return CUDA_SUCCESS;  // a fault shows at the next synchronisation, as on a GPU
}

}  // namespace kforecast::testing
