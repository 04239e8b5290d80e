// SPDX-License-Identifier: Apache-2.0
#include "context/system_header_names.hpp"

#include <algorithm>

namespace kforecast::context {

bool is_system_header_name(std::string_view name) {
  // The toolkit's headers that device code includes by bare name, and the C library's that share
  // a name with headers libraries commonly carry (memory.h, math.h, time.h, ...).
  static constexpr std::string_view names[]{
      "builtin_types.h", "cooperative_groups.h", "cub.cuh", "cublas.h", "cublasLt.h", "cublas_v2.h", "cuComplex.h",
      "cuda.h", "cuda_awbarrier.h", "cuda_bf16.h", "cuda_fp16.h", "cuda_fp4.h", "cuda_fp6.h", "cuda_fp8.h",
      "cuda_pipeline.h", "cuda_runtime.h", "cuda_runtime_api.h", "cuda_texture_types.h", "cufft.h", "curand.h",
      "curand_kernel.h", "cusolverDn.h", "cusparse.h", "device_atomic_functions.h", "device_functions.h",
      "device_launch_parameters.h", "driver_types.h", "host_defines.h", "math_constants.h", "math_functions.h",
      "mma.h", "nvrtc.h", "sm_32_intrinsics.h", "sm_60_atomic_functions.h", "surface_types.h", "texture_types.h",
      "vector_functions.h", "vector_types.h", "assert.h", "errno.h", "float.h", "limits.h", "math.h", "memory.h",
      "stdarg.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h", "time.h"};
  return std::ranges::find(names, name) != std::ranges::end(names);
}

}  // namespace kforecast::context
