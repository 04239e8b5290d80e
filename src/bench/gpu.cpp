// SPDX-License-Identifier: Apache-2.0
#include "bench/gpu.hpp"

#include <fmt/format.h>

#include "cuda/check.hpp"

namespace kforecast::bench {

using namespace kforecast::cuda;

Gpu::Gpu(const DriverApi& api, CUdevice device) : m_api(api), m_ordinal(device) {}

Result<std::unique_ptr<Gpu>> Gpu::open(const CudaDriver& driver, int ordinal) {
  auto devices = driver.devices();
  if (!devices) return std::unexpected(devices.error());
  if (ordinal >= static_cast<int>(devices->size()))
    return fail(ExitCode::could_not_run,
                fmt::format("no CUDA device {} (the driver lists {})", ordinal, devices->size()));
  return open(driver.api(), (*devices)[static_cast<std::size_t>(ordinal)]);
}

Result<std::unique_ptr<Gpu>> Gpu::open(const DriverApi& api, DeviceInfo info) {
  CUdevice device = 0;
  if (auto ok = KF_CU_CALL(api, api.cuDeviceGet(&device, info.ordinal)); !ok) return std::unexpected(ok.error());
  auto gpu = std::unique_ptr<Gpu>(new Gpu(api, device));
  gpu->m_device = std::move(info);
  CUcontext context = nullptr;
  if (auto ok = KF_CU_CALL(api, api.cuDevicePrimaryCtxRetain(&context, device)); !ok)
    return std::unexpected(ok.error());
  gpu->m_retained = true;
  if (auto ok = KF_CU_CALL(api, api.cuCtxSetCurrent(context)); !ok) return std::unexpected(ok.error());
  if (auto ok = KF_CU_CALL(api, api.cuStreamCreate(&gpu->m_stream, CU_STREAM_NON_BLOCKING)); !ok)
    return std::unexpected(ok.error());
  std::array<char, 64> bus_id{};
  if (api.cuDeviceGetPCIBusId(bus_id.data(), static_cast<int>(bus_id.size()) - 1, device) == CUDA_SUCCESS)
    gpu->m_nvml = NvmlDevice::open(bus_id.data());
  return gpu;
}

Gpu::~Gpu() {
  // Best effort: after a fault the context is lost and these fail; the process ends soon after.
  if (m_stream != nullptr) m_api.cuStreamSynchronize(m_stream);
  for (CUevent event : m_events) m_api.cuEventDestroy_v2(event);
  for (cuda::CUgraphExec graph : m_graphs) m_api.cuGraphExecDestroy(graph);
  for (CUdeviceptr pointer : m_allocations) m_api.cuMemFree_v2(pointer);
  for (CUmodule module : m_modules) m_api.cuModuleUnload(module);
  if (m_stream != nullptr) m_api.cuStreamDestroy_v2(m_stream);
  if (m_retained) m_api.cuDevicePrimaryCtxRelease_v2(m_ordinal);
}

Result<CUfunction> Gpu::load_function(std::span<const std::byte> cubin, const std::string& lowered_name,
                                      std::uint32_t shared_bytes) {
  CUmodule module = nullptr;
  if (auto ok = KF_CU_CALL(m_api, m_api.cuModuleLoadData(&module, cubin.data())); !ok)
    return std::unexpected(ok.error());
  m_modules.push_back(module);
  CUfunction function = nullptr;
  if (auto ok = KF_CU_CALL(m_api, m_api.cuModuleGetFunction(&function, module, lowered_name.c_str())); !ok)
    return std::unexpected(ok.error());
  if (shared_bytes > 48 * 1024) {
    if (auto ok = KF_CU_CALL(m_api, m_api.cuFuncSetAttribute(function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                                             static_cast<int>(shared_bytes)));
        !ok)
      return std::unexpected(ok.error());
  }
  return function;
}

Result<CUdeviceptr> Gpu::allocate(std::size_t bytes) {
  CUdeviceptr pointer = 0;
  if (auto ok = KF_CU_CALL(m_api, m_api.cuMemAlloc_v2(&pointer, bytes)); !ok) return std::unexpected(ok.error());
  m_allocations.push_back(pointer);
  return pointer;
}

Result<void> Gpu::upload(CUdeviceptr destination, std::span<const std::byte> bytes) {
  if (auto ok = synchronize(); !ok) return ok;
  // Queued on the stream, so the restores and launches after it wait for it; the host buffer may
  // go as soon as this returns (pageable memory is staged before the call returns).
  return KF_CU_CALL(m_api, m_api.cuMemcpyHtoDAsync_v2(destination, bytes.data(), bytes.size(), m_stream));
}

Result<void> Gpu::download(std::span<std::byte> destination, CUdeviceptr source) {
  if (auto ok = synchronize(); !ok) return ok;
  return KF_CU_CALL(m_api, m_api.cuMemcpyDtoH_v2(destination.data(), source, destination.size()));
}

Result<void> Gpu::copy_async(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes) {
  return KF_CU_CALL(m_api, m_api.cuMemcpyDtoDAsync_v2(destination, source, bytes, m_stream));
}

Result<void> Gpu::fill_async(CUdeviceptr destination, std::byte value, std::size_t bytes) {
  return KF_CU_CALL(m_api, m_api.cuMemsetD8Async(destination, static_cast<unsigned char>(value), bytes, m_stream));
}

Result<void> Gpu::launch(CUfunction function, const LaunchShape& shape, void** parameters) {
  return KF_CU_CALL(
      m_api, m_api.cuLaunchKernel(function, shape.grid[0], shape.grid[1], shape.grid[2], shape.block[0], shape.block[1],
                                  shape.block[2], shape.shared_bytes, m_stream, parameters, nullptr));
}

Result<cuda::CUgraphExec> Gpu::capture_launches(CUfunction function, const LaunchShape& shape, void** parameters,
                                                int count) {
  if (auto ok = KF_CU_CALL(m_api, m_api.cuStreamBeginCapture_v2(m_stream, cuda::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
      !ok)
    return std::unexpected(ok.error());
  Result<void> launched;
  for (int i = 0; i < count && launched; ++i) launched = launch(function, shape, parameters);
  // Capture always ends, so a failed launch leaves the stream usable and the first error reported.
  cuda::CUgraph graph = nullptr;
  auto ended = KF_CU_CALL(m_api, m_api.cuStreamEndCapture(m_stream, &graph));
  if (!launched) {
    if (graph != nullptr) m_api.cuGraphDestroy(graph);
    return std::unexpected(launched.error());
  }
  if (!ended) return std::unexpected(ended.error());
  cuda::CUgraphExec executable = nullptr;
  auto instantiated = KF_CU_CALL(m_api, m_api.cuGraphInstantiateWithFlags(&executable, graph, 0));
  m_api.cuGraphDestroy(graph);  // the executable keeps what it needs
  if (!instantiated) return std::unexpected(instantiated.error());
  m_graphs.push_back(executable);
  return executable;
}

Result<void> Gpu::launch_graph(cuda::CUgraphExec graph) {
  return KF_CU_CALL(m_api, m_api.cuGraphLaunch(graph, m_stream));
}

Result<void> Gpu::synchronize() { return KF_CU_CALL(m_api, m_api.cuStreamSynchronize(m_stream)); }

std::size_t Gpu::free_memory() const {
  std::size_t free = 0, total = 0;
  return m_api.cuMemGetInfo_v2(&free, &total) == CUDA_SUCCESS ? free : 0;
}

Result<void> Gpu::reserve_events(std::size_t count) {
  while (m_events.size() < count) {
    CUevent event = nullptr;
    if (auto ok = KF_CU_CALL(m_api, m_api.cuEventCreate(&event, CU_EVENT_DEFAULT)); !ok) return ok;
    m_events.push_back(event);
  }
  return {};
}

Result<void> Gpu::record(CUevent event) { return KF_CU_CALL(m_api, m_api.cuEventRecord(event, m_stream)); }

Result<float> Gpu::elapsed_ms(CUevent start, CUevent end) {
  if (auto ok = KF_CU_CALL(m_api, m_api.cuEventSynchronize(end)); !ok) return std::unexpected(ok.error());
  float milliseconds = 0;
  if (auto ok = KF_CU_CALL(m_api, m_api.cuEventElapsedTime(&milliseconds, start, end)); !ok)
    return std::unexpected(ok.error());
  return milliseconds;
}

}  // namespace kforecast::bench
