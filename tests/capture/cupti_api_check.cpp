// SPDX-License-Identifier: Apache-2.0
// Compares the injection library's own CUPTI and driver declarations (capture/injection/
// cupti_api.hpp) with the toolkit's headers, at compile time. Built only where cupti.h exists
// (tests/capture/CMakeLists.txt); there a wrong value or layout fails the build.

#include <cupti.h>  // brings cuda.h and generated_cuda_meta.h (the parameter structs)

#include <cstddef>
#include <cstdio>

#include "capture/injection/cupti_api.hpp"

namespace ours = kforecast::capture::injection;

#define SAME_LAYOUT(OURS, THEIRS, ...) /* NOLINT */                                    \
  static_assert(sizeof(OURS) == sizeof(THEIRS), #OURS ": size differs from " #THEIRS); \
  static_assert(alignof(OURS) == alignof(THEIRS), #OURS ": alignment differs from " #THEIRS)
#define SAME_OFFSET(OURS, OUR_FIELD, THEIRS, THEIR_FIELD) /* NOLINT */ \
  static_assert(offsetof(OURS, OUR_FIELD) == offsetof(THEIRS, THEIR_FIELD), #OURS "." #OUR_FIELD ": offset differs")
#define SAME_CBID(NAME) /* NOLINT */                                                                 \
  static_assert(static_cast<unsigned>(ours::DriverCallback::NAME) == CUPTI_DRIVER_TRACE_CBID_##NAME, \
                "DriverCallback::" #NAME " differs from CUPTI_DRIVER_TRACE_CBID_" #NAME)

SAME_CBID(cuMemAlloc_v2);
SAME_CBID(cuMemAllocPitch_v2);
SAME_CBID(cuMemFree_v2);
SAME_CBID(cuLaunchKernel);
SAME_CBID(cuMemAllocManaged);
SAME_CBID(cuLaunchKernel_ptsz);
SAME_CBID(cuLaunchCooperativeKernel);
SAME_CBID(cuLaunchCooperativeKernel_ptsz);
SAME_CBID(cuMemMap);
SAME_CBID(cuMemUnmap);
SAME_CBID(cuMemAllocAsync);
SAME_CBID(cuMemAllocAsync_ptsz);
SAME_CBID(cuMemFreeAsync);
SAME_CBID(cuMemFreeAsync_ptsz);
SAME_CBID(cuMemAllocFromPoolAsync);
SAME_CBID(cuMemAllocFromPoolAsync_ptsz);
SAME_CBID(cuLaunchKernelEx);
SAME_CBID(cuLaunchKernelEx_ptsz);

static_assert(static_cast<unsigned>(ours::ResourceCallback::context_created) == CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
static_assert(static_cast<unsigned>(ours::ResourceCallback::module_loaded) == CUPTI_CBID_RESOURCE_MODULE_LOADED);
static_assert(ours::CUPTI_CB_DOMAIN_DRIVER_API == static_cast<int>(::CUPTI_CB_DOMAIN_DRIVER_API));
static_assert(ours::CUPTI_CB_DOMAIN_RESOURCE == static_cast<int>(::CUPTI_CB_DOMAIN_RESOURCE));
static_assert(ours::CUPTI_API_ENTER == static_cast<int>(::CUPTI_API_ENTER));
static_assert(ours::CUPTI_API_EXIT == static_cast<int>(::CUPTI_API_EXIT));
static_assert(ours::CUPTI_SUCCESS == static_cast<int>(::CUPTI_SUCCESS));
static_assert(ours::CUDA_SUCCESS == static_cast<int>(::CUDA_SUCCESS));
static_assert(ours::CU_STREAM_CAPTURE_STATUS_NONE == static_cast<int>(::CU_STREAM_CAPTURE_STATUS_NONE));
static_assert(ours::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ==
              static_cast<int>(::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR));
static_assert(ours::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR ==
              static_cast<int>(::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
static_assert(ours::launch_param_end == CU_LAUNCH_PARAM_END_AS_INT);
static_assert(ours::launch_param_buffer_pointer == CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT);
static_assert(ours::launch_param_buffer_size == CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT);
static_assert(sizeof(ours::CUdeviceptr) == sizeof(::CUdeviceptr));

SAME_LAYOUT(ours::CUpti_CallbackData, ::CUpti_CallbackData);
SAME_OFFSET(ours::CUpti_CallbackData, functionParams, ::CUpti_CallbackData, functionParams);
SAME_OFFSET(ours::CUpti_CallbackData, functionReturnValue, ::CUpti_CallbackData, functionReturnValue);
SAME_OFFSET(ours::CUpti_CallbackData, symbolName, ::CUpti_CallbackData, symbolName);
SAME_OFFSET(ours::CUpti_CallbackData, correlationId, ::CUpti_CallbackData, correlationId);
SAME_LAYOUT(ours::CUpti_ResourceData, ::CUpti_ResourceData);
SAME_OFFSET(ours::CUpti_ResourceData, resourceDescriptor, ::CUpti_ResourceData, resourceDescriptor);
SAME_LAYOUT(ours::CUpti_ModuleResourceData, ::CUpti_ModuleResourceData);
SAME_OFFSET(ours::CUpti_ModuleResourceData, cubinSize, ::CUpti_ModuleResourceData, cubinSize);
SAME_OFFSET(ours::CUpti_ModuleResourceData, pCubin, ::CUpti_ModuleResourceData, pCubin);

SAME_LAYOUT(ours::LaunchConfig, ::CUlaunchConfig);
SAME_OFFSET(ours::LaunchConfig, shared_bytes, ::CUlaunchConfig, sharedMemBytes);
SAME_OFFSET(ours::LaunchConfig, stream, ::CUlaunchConfig, hStream);
SAME_LAYOUT(ours::cuLaunchKernel_params, ::cuLaunchKernel_params);
SAME_OFFSET(ours::cuLaunchKernel_params, sharedMemBytes, ::cuLaunchKernel_params, sharedMemBytes);
SAME_OFFSET(ours::cuLaunchKernel_params, hStream, ::cuLaunchKernel_params, hStream);
SAME_OFFSET(ours::cuLaunchKernel_params, kernelParams, ::cuLaunchKernel_params, kernelParams);
SAME_OFFSET(ours::cuLaunchKernel_params, extra, ::cuLaunchKernel_params, extra);
SAME_LAYOUT(ours::cuLaunchKernel_params, ::cuLaunchKernel_ptsz_params);
SAME_LAYOUT(ours::cuLaunchKernelEx_params, ::cuLaunchKernelEx_params);
SAME_OFFSET(ours::cuLaunchKernelEx_params, kernelParams, ::cuLaunchKernelEx_params, kernelParams);
SAME_LAYOUT(ours::cuLaunchCooperativeKernel_params, ::cuLaunchCooperativeKernel_params);
SAME_OFFSET(ours::cuLaunchCooperativeKernel_params, kernelParams, ::cuLaunchCooperativeKernel_params, kernelParams);
SAME_LAYOUT(ours::cuMemAlloc_v2_params, ::cuMemAlloc_v2_params);
SAME_LAYOUT(ours::cuMemAllocPitch_v2_params, ::cuMemAllocPitch_v2_params);
SAME_OFFSET(ours::cuMemAllocPitch_v2_params, Height, ::cuMemAllocPitch_v2_params, Height);
SAME_LAYOUT(ours::cuMemAllocManaged_params, ::cuMemAllocManaged_params);
SAME_LAYOUT(ours::cuMemAllocAsync_params, ::cuMemAllocAsync_params);
SAME_LAYOUT(ours::cuMemAllocFromPoolAsync_params, ::cuMemAllocFromPoolAsync_params);
SAME_LAYOUT(ours::cuMemFree_v2_params, ::cuMemFree_v2_params);
SAME_LAYOUT(ours::cuMemFreeAsync_params, ::cuMemFreeAsync_params);
SAME_LAYOUT(ours::cuMemMap_params, ::cuMemMap_params);
SAME_OFFSET(ours::cuMemMap_params, size, ::cuMemMap_params, size);
SAME_LAYOUT(ours::cuMemUnmap_params, ::cuMemUnmap_params);

int main() {
  // CU_STREAM_PER_THREAD is a pointer constant: compared at run time.
  if (ours::per_thread_stream != reinterpret_cast<ours::CUstream>(CU_STREAM_PER_THREAD)) {  // NOLINT
    std::puts("per_thread_stream differs from CU_STREAM_PER_THREAD");
    return 1;
  }
  std::puts("cupti_api.hpp matches cupti.h and cuda.h");
  return 0;
}
