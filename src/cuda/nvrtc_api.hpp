// SPDX-License-Identifier: Apache-2.0
#pragma once

// The NVRTC types and entry points kforecast uses, declared here instead of taken from nvrtc.h so
// the binary builds on machines with no CUDA toolkit. Values and signatures are from NVRTC's
// stable C ABI (nvrtc.h of CUDA 11 to 13); the library is opened with dlopen.

#include <cstddef>

namespace kforecast::cuda {

using nvrtcResult = int;
using nvrtcProgram = struct _nvrtcProgram*;

inline constexpr nvrtcResult NVRTC_SUCCESS = 0;
inline constexpr nvrtcResult NVRTC_ERROR_COMPILATION = 6;

// Entry points, named exactly as the C functions so a failing call reads as the API it is.
// The last group is optional: older NVRTC releases lack it, and a null pointer means "absent".
struct NvrtcApi {
  const char* (*nvrtcGetErrorString)(nvrtcResult result) = nullptr;
  nvrtcResult (*nvrtcVersion)(int* major, int* minor) = nullptr;
  nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram* program, const char* source, const char* name, int header_count,
                                    const char* const* headers, const char* const* include_names) = nullptr;
  nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram* program) = nullptr;
  nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram program, int option_count, const char* const* options) = nullptr;
  nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram program, std::size_t* size) = nullptr;
  nvrtcResult (*nvrtcGetPTX)(nvrtcProgram program, char* ptx) = nullptr;
  nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram program, std::size_t* size) = nullptr;
  nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram program, char* log) = nullptr;
  nvrtcResult (*nvrtcAddNameExpression)(nvrtcProgram program, const char* name_expression) = nullptr;
  nvrtcResult (*nvrtcGetLoweredName)(nvrtcProgram program, const char* name_expression, const char** lowered) = nullptr;

  // Optional (CUDA 11.1 and later).
  nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram program, std::size_t* size) = nullptr;
  nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram program, char* cubin) = nullptr;
  // Optional (CUDA 11.2 and later).
  nvrtcResult (*nvrtcGetNumSupportedArchs)(int* count) = nullptr;
  nvrtcResult (*nvrtcGetSupportedArchs)(int* archs) = nullptr;
};

}  // namespace kforecast::cuda
