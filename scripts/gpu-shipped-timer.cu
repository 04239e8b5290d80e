// SPDX-License-Identifier: Apache-2.0
// An independent timer for scripts/gpu-shipped-build.sh: each kernel of fixtures/gpu built
// twice, by nvcc into this program (the build a project ships) and by NVRTC at run time (what
// kforecast measured before it built like the project), and timed the same way kforecast's
// runner does, with the CUDA runtime and events instead of its driver-API runner: per sample a
// read of twice the L2 (clean lines), then events around one launch; 3 warm-up samples dropped,
// the median of 31. Writes each NVRTC cubin to CUBIN_DIR for cuobjdump. Build and run there:
//   nvcc -O3 -std=c++17 --use_fast_math -arch=sm_90 -o timer scripts/gpu-shipped-timer.cu -lnvrtc -lcuda
//   ./timer fixtures/gpu CUBIN_DIR
// (--use_fast_math: the project's flag, as llm.c builds; NVRTC gets none, as kforecast's own
// build had none.)
// Prints one line per kernel: "<variant> nvcc_us nvrtc_us registers_nvcc registers_nvrtc".
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

// The nvcc builds: each variant in a namespace of its own (the files hold no includes).
namespace v1_naive {
#include "../fixtures/gpu/sgemm/v1_naive.cu"
}
namespace v2_coalesced {
#include "../fixtures/gpu/sgemm/v2_coalesced.cu"
}
namespace v3_shared {
#include "../fixtures/gpu/sgemm/v3_shared.cu"
}
namespace v4_tile1d {
#include "../fixtures/gpu/sgemm/v4_tile1d.cu"
}
namespace v5_tile2d {
#include "../fixtures/gpu/sgemm/v5_tile2d.cu"
}
namespace v6_vectorized {
#include "../fixtures/gpu/sgemm/v6_vectorized.cu"
}
namespace v7_tile2d_k16 {
#include "../fixtures/gpu/sgemm/v7_tile2d_k16.cu"
}
namespace gelu_scalar {
#include "../fixtures/gpu/activation/gelu_scalar.cu"
}
namespace gelu_vec4 {
#include "../fixtures/gpu/activation/gelu_vec4.cu"
}
namespace wave_intrinsic {
#include "../fixtures/gpu/wave/wave_intrinsic.cu"
}
namespace wave_precise {
#include "../fixtures/gpu/wave/wave_precise.cu"
}
namespace softmax_thread {
#include "../fixtures/gpu/activation/softmax_thread.cu"
}
namespace softmax_warp {
#include "../fixtures/gpu/activation/softmax_warp.cu"
}
namespace layernorm_block {
#include "../fixtures/gpu/activation/layernorm_block.cu"
}
namespace layernorm_warp {
#include "../fixtures/gpu/activation/layernorm_warp.cu"
}

#include "gpu-timer-common.cuh"
#define CHECK_CU(call)                                                                                 \
  do {                                                                                                 \
    CUresult e = (call);                                                                               \
    if (e != CUDA_SUCCESS) {                                                                           \
      std::fprintf(stderr, "%s: %d (%s:%d)\n", #call, static_cast<int>(e), __FILE__, __LINE__);      \
      std::exit(1);                                                                                    \
    }                                                                                                  \
  } while (0)

// One kernel of the families: its file (for NVRTC), its name, its launch geometry and arguments
// (pointers to the values, as cuLaunchKernel takes them), and its nvcc build's launch.
struct Entry {
  std::string file;  // relative to fixtures/gpu
  std::string kernel;
  dim3 grid, block;
  std::vector<void*> args;
  std::function<void()> nvcc_launch;
  const void* nvcc_function;
};

struct Flush {
  int4* buffer = nullptr;
  int* sink = nullptr;
  unsigned long long words = 0;
  int sms = 0;
  void operator()() const { flush_l2<<<sms * 4, 256>>>(buffer, words, sink); }
};

Flush new_flush() {
  int l2 = 0;
  Flush flush;
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  CHECK(cudaDeviceGetAttribute(&flush.sms, cudaDevAttrMultiProcessorCount, 0));
  flush.words = 2ull * l2 / 16;
  CHECK(cudaMalloc(&flush.buffer, flush.words * 16));
  CHECK(cudaMalloc(&flush.sink, 16));
  CHECK(cudaMemset(flush.buffer, 0, flush.words * 16));
  return flush;
}

template <class Launch>
double median_us(const Flush& flush, Launch launch) {
  cudaEvent_t start, end;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&end));
  std::vector<double> times;
  for (int r = 0; r < 34; ++r) {
    flush();
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(end));
    CHECK(cudaEventSynchronize(end));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, end));
    if (r >= 3) times.push_back(ms * 1000.0);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The NVRTC build of `source`'s `kernel` for sm_90, its cubin written to `cubin_path`.
CUfunction nvrtc_build(const std::string& source, const std::string& kernel, const std::string& cubin_path) {
  nvrtcProgram program;
  nvrtcCreateProgram(&program, source.c_str(), "sgemm.cu", 0, nullptr, nullptr);
  nvrtcAddNameExpression(program, kernel.c_str());
  const char* options[] = {"--gpu-architecture=sm_90"};
  if (nvrtcCompileProgram(program, 1, options) != NVRTC_SUCCESS) {
    size_t size = 0;
    nvrtcGetProgramLogSize(program, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(program, log.data());
    std::fprintf(stderr, "NVRTC: %s\n", log.c_str());
    std::exit(1);
  }
  const char* lowered = nullptr;
  nvrtcGetLoweredName(program, kernel.c_str(), &lowered);
  size_t size = 0;
  nvrtcGetCUBINSize(program, &size);
  std::string cubin(size, '\0');
  nvrtcGetCUBIN(program, cubin.data());
  std::ofstream(cubin_path, std::ios::binary) << cubin;
  CUmodule module;
  CHECK_CU(cuModuleLoadData(&module, cubin.data()));
  CUfunction function;
  CHECK_CU(cuModuleGetFunction(&function, module, lowered));
  return function;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: timer FIXTURES_GPU_DIR CUBIN_DIR\n");
    return 2;
  }
  const std::string dir = argv[1], cubins = argv[2];
  CHECK(cudaSetDevice(0));
  CHECK(cudaFree(nullptr));  // the runtime's context, which the driver API then shares
  // Buffers big enough for every family; each kernel reads and writes a prefix.
  const size_t elements = 16ull << 20;
  std::vector<float> host(elements);
  std::mt19937 random(7);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  for (auto& v : host) v = uniform(random);
  float *a, *b, *c, *d;
  const size_t bytes = host.size() * sizeof(float);
  for (float** buffer : {&a, &b, &c, &d}) {
    CHECK(cudaMalloc(buffer, bytes));
    CHECK(cudaMemcpy(*buffer, host.data(), bytes, cudaMemcpyHostToDevice));
  }
  int n = 2048, vector_n = 16777216, rows = 16384, cols = 1024;
  std::vector<Entry> entries;
  const auto sgemm = [&](const char* name, auto kernel, unsigned tile, dim3 block) {
    const dim3 grid(n / tile, n / tile);
    entries.push_back({std::string("sgemm/") + name + ".cu", "sgemm", grid, block, {&a, &b, &c, &n},
                       [=] { kernel<<<grid, block>>>(a, b, c, n); }, reinterpret_cast<const void*>(kernel)});
  };
  sgemm("v1_naive", v1_naive::sgemm, 32, dim3(32, 32));
  sgemm("v2_coalesced", v2_coalesced::sgemm, 32, dim3(32, 32));
  sgemm("v3_shared", v3_shared::sgemm, 32, dim3(32, 32));
  sgemm("v4_tile1d", v4_tile1d::sgemm, 64, dim3(512));
  sgemm("v5_tile2d", v5_tile2d::sgemm, 128, dim3(256));
  sgemm("v6_vectorized", v6_vectorized::sgemm, 128, dim3(256));
  sgemm("v7_tile2d_k16", v7_tile2d_k16::sgemm, 128, dim3(256));
  // (x, y, n) kernels of 256 threads a block, `per_block` elements each block.
  const auto elementwise = [&](const std::string& file, const char* kernel_name, auto kernel, unsigned per_block) {
    const dim3 grid((vector_n + per_block - 1) / per_block), block(256);
    entries.push_back({file, kernel_name, grid, block, {&a, &c, &vector_n},
                       [=] { kernel<<<grid, block>>>(a, c, vector_n); }, reinterpret_cast<const void*>(kernel)});
  };
  elementwise("activation/gelu_scalar.cu", "gelu", gelu_scalar::gelu, 256);
  elementwise("activation/gelu_vec4.cu", "gelu", gelu_vec4::gelu, 1024);
  elementwise("wave/wave_intrinsic.cu", "wave", wave_intrinsic::wave, 256);
  elementwise("wave/wave_precise.cu", "wave", wave_precise::wave, 1024);
  const auto softmax = [&](const char* name, auto kernel, dim3 grid, dim3 block) {
    entries.push_back({std::string("activation/") + name + ".cu", "softmax", grid, block, {&a, &c, &rows, &cols},
                       [=] { kernel<<<grid, block>>>(a, c, rows, cols); }, reinterpret_cast<const void*>(kernel)});
  };
  softmax("softmax_thread", softmax_thread::softmax, dim3((rows + 127) / 128), dim3(128));
  softmax("softmax_warp", softmax_warp::softmax, dim3((rows + 7) / 8), dim3(256));
  const auto layernorm = [&](const char* name, auto kernel, dim3 grid, dim3 block) {
    entries.push_back({std::string("activation/") + name + ".cu", "layernorm", grid, block,
                       {&a, &b, &d, &c, &rows, &cols}, [=] { kernel<<<grid, block>>>(a, b, d, c, rows, cols); },
                       reinterpret_cast<const void*>(kernel)});
  };
  layernorm("layernorm_block", layernorm_block::layernorm, dim3(rows), dim3(256));
  layernorm("layernorm_warp", layernorm_warp::layernorm, dim3((rows + 7) / 8), dim3(256));

  const Flush flush = new_flush();
  for (auto& entry : entries) {
    const double nvcc_us = median_us(flush, entry.nvcc_launch);
    CHECK(cudaGetLastError());
    const std::string stem = entry.file.substr(entry.file.find('/') + 1, entry.file.size() - entry.file.find('/') - 4);
    CUfunction function = nvrtc_build(read_file(dir + "/" + entry.file), entry.kernel, cubins + "/" + stem + ".nvrtc.cubin");
    const double nvrtc_us = median_us(flush, [&] {
      CHECK_CU(cuLaunchKernel(function, entry.grid.x, entry.grid.y, 1, entry.block.x, entry.block.y, 1, 0, nullptr,
                              entry.args.data(), nullptr));
    });
    cudaFuncAttributes attributes;
    CHECK(cudaFuncGetAttributes(&attributes, entry.nvcc_function));
    int nvrtc_registers = 0;
    CHECK_CU(cuFuncGetAttribute(&nvrtc_registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function));
    std::printf("%s %.2f %.2f %d %d\n", stem.c_str(), nvcc_us, nvrtc_us, attributes.numRegs, nvrtc_registers);
  }
  return 0;
}
