// SPDX-License-Identifier: Apache-2.0
// What the independent timers of scripts/ share (gpu-bench-timer.cu, gpu-shipped-timer.cu): a
// CUDA-runtime error check and kforecast's L2 flush, a read of twice the L2 leaving clean lines.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    cudaError_t e = (call);                                                                            \
    if (e != cudaSuccess) {                                                                            \
      std::fprintf(stderr, "%s: %s (%s:%d)\n", #call, cudaGetErrorString(e), __FILE__, __LINE__);   \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

__global__ void flush_l2(const int4* data, unsigned long long count, int* sink) {
  int folded = 0;
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const int4 v = data[i];
    folded ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (folded == 0x7fffffff) *sink = folded;
}
