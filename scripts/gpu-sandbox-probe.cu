// SPDX-License-Identifier: Apache-2.0
// What a benchmark in kforecast's sandbox can and cannot do on a GPU machine
// (scripts/gpu-sandbox-check.sh runs it confined as a harness command is): the CUDA runtime
// allocates, launches and copies back; an Internet socket is refused; a UNIX socket pair works.
// Prints one line each and exits 0 only where the GPU work was right. Build and run there:
//   nvcc -O2 -arch=native -o probe scripts/gpu-sandbox-probe.cu && ./probe
#include <cuda_runtime.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

__global__ void twice(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}

int main() {
  const int inet = socket(AF_INET, SOCK_STREAM, 0);
  std::printf("inet socket: %s\n", inet >= 0 ? "opened" : strerrorname_np(errno));
  if (inet >= 0) close(inet);
  int pair[2];
  std::printf("unix socket pair: %s\n", socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0 ? "ok" : strerrorname_np(errno));

  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess) {
    std::printf("gpu: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  constexpr int n = 1 << 20;
  std::vector<float> host(n), back(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 1000);
  float *in = nullptr, *out = nullptr;
  cudaError_t status = cudaMalloc(&in, n * sizeof(float));
  if (status == cudaSuccess) status = cudaMalloc(&out, n * sizeof(float));
  if (status == cudaSuccess) status = cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  if (status == cudaSuccess) {
    twice<<<(n + 255) / 256, 256>>>(in, out, n);
    status = cudaGetLastError();
  }
  if (status == cudaSuccess) status = cudaMemcpy(back.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (status != cudaSuccess) {
    std::printf("gpu: %s\n", cudaGetErrorString(status));
    return 1;
  }
  for (int i = 0; i < n; ++i)
    if (back[i] != 2.0f * host[i]) {
      std::printf("gpu: wrong result at %d\n", i);
      return 1;
    }
  std::printf("gpu: ok (%s: allocated, launched, copied back)\n", properties.name);
  return 0;
}
