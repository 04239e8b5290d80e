// SPDX-License-Identifier: Apache-2.0
#pragma once

// The one way to call the CUDA driver or NVRTC: KF_CU_CALL(api, api.cuInit(0)) and
// KF_NVRTC_CALL(api, api.nvrtcCompileProgram(...)) turn a failing result into an Error naming the
// call, the result (CUDA_ERROR_NO_DEVICE, not 100), where it was made and what to do about it.
// Modelled on nvbench's NVBENCH_DRIVER_API_CALL; values, not exceptions.

#include <optional>
#include <source_location>
#include <string>
#include <string_view>

#include "base/error.hpp"
#include "cuda/driver_api.hpp"
#include "cuda/nvrtc_api.hpp"

namespace kforecast::cuda {

enum class Api { driver, nvrtc };

struct FailedCall {
  Api api = Api::driver;
  std::string call;  // "cuDeviceGetCount(&count)", as written at the call site
  int code = 0;
  std::string code_name;  // "CUDA_ERROR_NO_DEVICE"
  std::string place;      // "src/cuda/cuda_driver.cpp:57"
};

#define KF_CU_CALL(api, expr) \
  ::kforecast::cuda::check_driver_call((api), (expr), #expr, std::source_location::current())
#define KF_NVRTC_CALL(api, expr) \
  ::kforecast::cuda::check_nvrtc_call((api), (expr), #expr, std::source_location::current())

Result<void> check_driver_call(const DriverApi& api, CUresult code, std::string_view call, std::source_location where);
Result<void> check_nvrtc_call(const NvrtcApi& api, nvrtcResult code, std::string_view call, std::source_location where);

// The name the loaded library gives a result (cuGetErrorName, nvrtcGetErrorString); when it
// cannot (a stub driver, an unknown code), a built-in name, else "CUresult 123".
std::string driver_result_name(const DriverApi& api, CUresult code);
std::string nvrtc_result_name(const NvrtcApi& api, nvrtcResult code);

// What a user can do about a result, by name; empty when there is nothing better to say.
std::string_view hint_for(std::string_view result_name);

// The Error both checks produce, and the record they keep; public so messages can be tested
// without a library. Also records the call as this thread's last failure.
Error call_error(const FailedCall& failure);

// The most recent failing call on this thread, for diagnostics after the fact.
std::optional<FailedCall> last_failed_call();

}  // namespace kforecast::cuda
