// SPDX-License-Identifier: Apache-2.0
#pragma once

// The lint benches' source file: a tiled SGEMM and a shared-memory reduction (plus a device
// helper, a local header's macro and host launch code), in a base and a staged version.

#include <string>

#include <fmt/format.h>

namespace kforecast::bench_fixture {

// The staged version changes a line in each kernel; some of the new lines fire rules.
inline std::string kernel_file(int index, bool staged) {
  const std::string gemm_line = staged ? "acc += As[ty][k] * Bs[k][tx] * 1.0;" : "acc += As[ty][k] * Bs[k][tx];";
  const std::string reduce_line =
      staged ? "if (tid < s) {{ s_data[tid] += s_data[tid + s]; }}" : "if (tid < s) s_data[tid] += s_data[tid + s];";
  return fmt::format(fmt::runtime(R"(#include <cstdio>
#include "common.cuh"
#define TILE_{0} 16

__device__ float scale_{0}(float x) {{ return x * SCALE + 0.5f; }}

__global__ void sgemm_{0}(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                        int M, int N, int K) {{
  __shared__ float As[TILE_{0}][TILE_{0}];
  __shared__ float Bs[TILE_{0}][TILE_{0}];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE_{0} + ty, col = blockIdx.x * TILE_{0} + tx;
  float acc = 0.0f;
  for (int t = 0; t < (K + TILE_{0} - 1) / TILE_{0}; ++t) {{
    As[ty][tx] = (row < M && t * TILE_{0} + tx < K) ? A[row * K + t * TILE_{0} + tx] : 0.0f;
    Bs[ty][tx] = (col < N && t * TILE_{0} + ty < K) ? B[(t * TILE_{0} + ty) * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE_{0}; ++k) {{
      )" + gemm_line + R"(
    }}
    __syncthreads();
  }}
  if (row < M && col < N) C[row * N + col] = scale_{0}(acc);
}}

__global__ void reduce_{0}(const float* __restrict__ in, float* __restrict__ out, int n) {{
  __shared__ float s_data[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  s_data[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {{
    )" + reduce_line + R"(
    __syncthreads();
  }}
  if (tid == 0) out[blockIdx.x] = s_data[0];
}}

void launch_{0}(const float* a, const float* b, float* c, int n) {{
  dim3 block(TILE_{0}, TILE_{0});
  dim3 grid((n + TILE_{0} - 1) / TILE_{0}, (n + TILE_{0} - 1) / TILE_{0});
  sgemm_{0}<<<grid, block>>>(a, b, c, n, n, n);
  reduce_{0}<<<(n + 255) / 256, 256>>>(c, c, n);
}}
)"),
                     index);
}

}  // namespace kforecast::bench_fixture
