// SPDX-License-Identifier: Apache-2.0
#pragma once

// The few CUDA driver API types and entry points kforecast uses, declared here instead of taken
// from cuda.h so the binary builds on machines with no CUDA toolkit. Every value and signature is
// from the driver's stable C ABI (cuda.h of CUDA 11 to 13); the library is opened with dlopen.
// To use another entry point: add its pointer to DriverApi and its dlsym in cuda_driver.cpp,
// taking the versioned name (cuFoo_v2) where cuda.h #defines cuFoo to one.

#include <cstddef>

namespace kforecast::cuda {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUgraph = struct CUgraph_st*;
using CUgraphExec = struct CUgraphExec_st*;
using CUdeviceptr = unsigned long long;  // CUdeviceptr_v2

inline constexpr CUresult CUDA_SUCCESS = 0;
inline constexpr CUresult CUDA_ERROR_STUB_LIBRARY = 34;
inline constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
inline constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
inline constexpr CUresult CUDA_ERROR_NOT_READY = 600;
inline constexpr int CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8;
inline constexpr unsigned CU_STREAM_NON_BLOCKING = 1;
inline constexpr unsigned CU_EVENT_DEFAULT = 0;
inline constexpr int CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1;  // CUstreamCaptureMode

// CUdevice_attribute values (cuda.h); only those DeviceInfo reports.
enum class DeviceAttribute : int {
  clock_rate_khz = 13,                        // CU_DEVICE_ATTRIBUTE_CLOCK_RATE
  multiprocessor_count = 16,                  // CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT
  memory_clock_rate_khz = 36,                 // CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE
  global_memory_bus_width = 37,               // CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH
  l2_cache_size = 38,                         // CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE
  max_threads_per_multiprocessor = 39,        // CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR
  compute_capability_major = 75,              // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR
  compute_capability_minor = 76,              // CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR
  max_shared_memory_per_multiprocessor = 81,  // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR
  max_registers_per_multiprocessor = 82,      // CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR
  max_shared_memory_per_block_optin = 97,     // CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN
};

// Entry points, named exactly as the C functions so a failing call reads as the API it is.
struct DriverApi {
  CUresult (*cuGetErrorName)(CUresult error, const char** name) = nullptr;
  CUresult (*cuInit)(unsigned int flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int* version) = nullptr;
  CUresult (*cuDeviceGetCount)(int* count) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device) = nullptr;
  CUresult (*cuDeviceTotalMem_v2)(std::size_t* bytes, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease_v2)(CUdevice device) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext context) = nullptr;
  CUresult (*cuDeviceGetPCIBusId)(char* bus_id, int length, CUdevice device) = nullptr;

  // Running kernels (the benchmark).
  CUresult (*cuCtxSynchronize)() = nullptr;
  CUresult (*cuMemGetInfo_v2)(std::size_t* free, std::size_t* total) = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule* module, const void* image) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule module) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module, const char* name) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction function, int attribute, int value) = nullptr;
  CUresult (*cuMemAlloc_v2)(CUdeviceptr* pointer, std::size_t bytes) = nullptr;
  CUresult (*cuMemFree_v2)(CUdeviceptr pointer) = nullptr;
  // On kforecast's stream: a copy on the legacy stream is not ordered before work on a
  // non-blocking stream, and a pageable copy may return before its last DMA has landed.
  CUresult (*cuMemcpyHtoDAsync_v2)(CUdeviceptr destination, const void* source, std::size_t bytes,
                                   CUstream stream) = nullptr;
  CUresult (*cuMemcpyDtoH_v2)(void* destination, CUdeviceptr source, std::size_t bytes) = nullptr;
  CUresult (*cuMemcpyDtoDAsync_v2)(CUdeviceptr destination, CUdeviceptr source, std::size_t bytes,
                                   CUstream stream) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr destination, unsigned char value, std::size_t count,
                              CUstream stream) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction function, unsigned grid_x, unsigned grid_y, unsigned grid_z, unsigned block_x,
                             unsigned block_y, unsigned block_z, unsigned shared_bytes, CUstream stream,
                             void** parameters, void** extra) = nullptr;
  CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags) = nullptr;
  CUresult (*cuStreamDestroy_v2)(CUstream stream) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream stream) = nullptr;
  CUresult (*cuEventCreate)(CUevent* event, unsigned flags) = nullptr;
  CUresult (*cuEventDestroy_v2)(CUevent event) = nullptr;
  CUresult (*cuEventRecord)(CUevent event, CUstream stream) = nullptr;
  CUresult (*cuEventSynchronize)(CUevent event) = nullptr;
  CUresult (*cuEventElapsedTime)(float* milliseconds, CUevent start, CUevent end) = nullptr;

  // A sample's launches captured once into a graph (CUDA 11.4 and later).
  CUresult (*cuStreamBeginCapture_v2)(CUstream stream, int mode) = nullptr;
  CUresult (*cuStreamEndCapture)(CUstream stream, CUgraph* graph) = nullptr;
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec* executable, CUgraph graph, unsigned long long flags) = nullptr;
  CUresult (*cuGraphLaunch)(CUgraphExec executable, CUstream stream) = nullptr;
  CUresult (*cuGraphExecDestroy)(CUgraphExec executable) = nullptr;
  CUresult (*cuGraphDestroy)(CUgraph graph) = nullptr;
};

}  // namespace kforecast::cuda
