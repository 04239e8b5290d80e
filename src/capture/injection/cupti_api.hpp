// SPDX-License-Identifier: Apache-2.0
#pragma once

// The few CUPTI and CUDA driver declarations the injection library uses, declared here instead of
// taken from cupti.h and cuda.h so the library builds where no CUDA toolkit is installed (CI).
// Every value and layout is from the stable C ABI (CUDA 12 and 13 headers); where cupti.h exists,
// tests/capture/cupti_api_check.cpp compares each one with the real header at compile time. To
// use another callback: add its id here and its static_assert there.

#include <cstddef>
#include <cstdint>

namespace kforecast::capture::injection {

using CUresult = int;
using CUdevice = int;
using CUcontext = struct CUctx_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUdeviceptr = unsigned long long;  // CUdeviceptr_v2
using CUmemGenericAllocationHandle = unsigned long long;

inline constexpr CUresult CUDA_SUCCESS = 0;
// CU_STREAM_PER_THREAD: the per-thread default stream, which a _ptsz launch's null stream means.
inline const CUstream per_thread_stream = reinterpret_cast<CUstream>(0x2);  // NOLINT(performance-no-int-to-ptr)
// cuLaunchKernel's `extra` array markers (CU_LAUNCH_PARAM_*).
inline constexpr std::uintptr_t launch_param_end = 0x0;
inline constexpr std::uintptr_t launch_param_buffer_pointer = 0x1;
inline constexpr std::uintptr_t launch_param_buffer_size = 0x2;
inline constexpr int CU_STREAM_CAPTURE_STATUS_NONE = 0;  // CUstreamCaptureStatus
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75;
inline constexpr int CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76;

// CUlaunchConfig (cuLaunchKernelEx's first argument).
struct LaunchConfig {
  unsigned grid_x, grid_y, grid_z;
  unsigned block_x, block_y, block_z;
  unsigned shared_bytes;
  CUstream stream;
  void* attributes;
  unsigned attribute_count;
};

// The parameter structs CUPTI passes as functionParams (generated_cuda_meta.h). The _ptsz
// variants have the same layouts.
struct cuLaunchKernel_params {
  CUfunction f;
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  void** kernelParams;
  void** extra;
};
struct cuLaunchKernelEx_params {
  const LaunchConfig* config;
  CUfunction f;
  void** kernelParams;
  void** extra;
};
struct cuLaunchCooperativeKernel_params {
  CUfunction f;
  unsigned gridDimX, gridDimY, gridDimZ;
  unsigned blockDimX, blockDimY, blockDimZ;
  unsigned sharedMemBytes;
  CUstream hStream;
  void** kernelParams;
};
struct cuMemAlloc_v2_params {
  CUdeviceptr* dptr;
  std::size_t bytesize;
};
struct cuMemAllocPitch_v2_params {
  CUdeviceptr* dptr;
  std::size_t* pPitch;
  std::size_t WidthInBytes;
  std::size_t Height;
  unsigned ElementSizeBytes;
};
struct cuMemAllocManaged_params {
  CUdeviceptr* dptr;
  std::size_t bytesize;
  unsigned flags;
};
struct cuMemAllocAsync_params {
  CUdeviceptr* dptr;
  std::size_t bytesize;
  CUstream hStream;
};
struct cuMemAllocFromPoolAsync_params {
  CUdeviceptr* dptr;
  std::size_t bytesize;
  void* pool;
  CUstream hStream;
};
struct cuMemFree_v2_params {
  CUdeviceptr dptr;
};
struct cuMemFreeAsync_params {
  CUdeviceptr dptr;
  CUstream hStream;
};
struct cuMemMap_params {
  CUdeviceptr ptr;
  std::size_t size;
  std::size_t offset;
  CUmemGenericAllocationHandle handle;
  unsigned long long flags;
};
struct cuMemUnmap_params {
  CUdeviceptr ptr;
  std::size_t size;
};

// CUPTI.
using CUptiResult = int;
inline constexpr CUptiResult CUPTI_SUCCESS = 0;
using CUpti_SubscriberHandle = struct CUpti_Subscriber_st*;
using CUpti_CallbackId = std::uint32_t;

enum CUpti_CallbackDomain : int {
  CUPTI_CB_DOMAIN_DRIVER_API = 1,
  CUPTI_CB_DOMAIN_RESOURCE = 3,
};
enum CUpti_ApiCallbackSite : int {
  CUPTI_API_ENTER = 0,
  CUPTI_API_EXIT = 1,
};

// CUpti_driver_api_trace_cbid: the driver calls the library listens to.
enum class DriverCallback : CUpti_CallbackId {
  cuMemAlloc_v2 = 243,
  cuMemAllocPitch_v2 = 244,
  cuMemFree_v2 = 245,
  cuLaunchKernel = 307,
  cuMemAllocManaged = 371,
  cuLaunchKernel_ptsz = 442,
  cuLaunchCooperativeKernel = 477,
  cuLaunchCooperativeKernel_ptsz = 478,
  cuMemMap = 551,
  cuMemUnmap = 552,
  cuMemAllocAsync = 598,
  cuMemAllocAsync_ptsz = 599,
  cuMemFreeAsync = 600,
  cuMemFreeAsync_ptsz = 601,
  cuMemAllocFromPoolAsync = 611,
  cuMemAllocFromPoolAsync_ptsz = 612,
  cuLaunchKernelEx = 652,
  cuLaunchKernelEx_ptsz = 653,
};

// CUpti_CallbackIdResource.
enum class ResourceCallback : CUpti_CallbackId {
  context_created = 1,  // CUPTI_CBID_RESOURCE_CONTEXT_CREATED
  module_loaded = 6,    // CUPTI_CBID_RESOURCE_MODULE_LOADED
};

struct CUpti_CallbackData {
  CUpti_ApiCallbackSite callbackSite;
  const char* functionName;
  const void* functionParams;
  void* functionReturnValue;
  const char* symbolName;
  CUcontext context;
  std::uint32_t contextUid;
  std::uint64_t* correlationData;
  std::uint32_t correlationId;
};

struct CUpti_ResourceData {
  CUcontext context;
  union {
    CUstream stream;
  } resourceHandle;
  void* resourceDescriptor;
};

struct CUpti_ModuleResourceData {
  std::uint32_t moduleId;
  std::size_t cubinSize;
  const char* pCubin;
};

using CUpti_CallbackFunc = void (*)(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                    const void* cbdata);

// Entry points, named as the C functions; filled by dlsym.
struct CuptiApi {
  CUptiResult (*cuptiSubscribe)(CUpti_SubscriberHandle* subscriber, CUpti_CallbackFunc callback,
                                void* userdata) = nullptr;
  CUptiResult (*cuptiEnableCallback)(std::uint32_t enable, CUpti_SubscriberHandle subscriber,
                                     CUpti_CallbackDomain domain, CUpti_CallbackId cbid) = nullptr;
  CUptiResult (*cuptiGetResultString)(CUptiResult result, const char** text) = nullptr;
};

struct DriverApi {
  CUresult (*cuStreamSynchronize)(CUstream stream) = nullptr;
  CUresult (*cuStreamIsCapturing)(CUstream stream, int* status) = nullptr;
  CUresult (*cuMemcpyDtoHAsync_v2)(void* destination, CUdeviceptr source, std::size_t bytes, CUstream stream) = nullptr;
  CUresult (*cuMemGetAddressRange_v2)(CUdeviceptr* base, std::size_t* bytes, CUdeviceptr pointer) = nullptr;
  CUresult (*cuCtxGetDevice)(CUdevice* device) = nullptr;
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device) = nullptr;
  CUresult (*cuGetErrorName)(CUresult error, const char** name) = nullptr;
};

}  // namespace kforecast::capture::injection
