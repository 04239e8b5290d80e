// SPDX-License-Identifier: Apache-2.0
// An independent timer for the kernels kforecast bench measures in scripts/gpu-bench.sh: the
// CUDA runtime and nvcc (not NVRTC and the driver API), CUDA events around a CUDA graph of
// launches, the median over replays. Warm: 20 launches back to back. Cold: 20 x (read 2x the
// L2, launch) minus 20 x (read 2x the L2), which charges a kernel with writing back the dirty
// lines it leaves in L2 (the next flush pays for them). Isolated (kforecast's semantics, without
// its spin kernel): per replay, the flush, then events around one launch; the lines the kernel
// leaves dirty are written back after the end event. Batched (kforecast's samples): per replay,
// the flush, then events around a graph of k launches, k = ceil(20 us / isolated time) as
// kforecast chooses it; the time per launch is the graph's over k (kforecast's definition, which
// a spin kernel before the flush leaves unchanged). Build and run there:
//   nvcc -O3 -arch=native -o timer scripts/gpu-bench-timer.cu -I fixtures/bench -lnvrtc -lcuda && ./timer
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <random>
#include <vector>

#include "chain.cu"
#include "copy.cu"

#include "gpu-timer-common.cuh"

// Holds the stream for `ns` nanoseconds of the GPU's global timer (one thread).
__global__ void spin(unsigned long long ns) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < ns);
}

// kforecast's L2 flush, launched as kforecast launches it (4 blocks of 256 per SM).
struct L2Flush {
  int4* buffer = nullptr;
  int* sink = nullptr;
  unsigned long long words = 0;
  int sms = 0;
  void operator()(cudaStream_t s) const { flush_l2<<<sms * 4, 256, 0, s>>>(buffer, words, sink); }
};

L2Flush new_l2_flush() {
  int device = 0, l2 = 0;
  L2Flush flush;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  CHECK(cudaDeviceGetAttribute(&flush.sms, cudaDevAttrMultiProcessorCount, device));
  flush.words = 2ull * l2 / 16;
  CHECK(cudaMalloc(&flush.buffer, flush.words * 16));
  CHECK(cudaMalloc(&flush.sink, 16));
  CHECK(cudaMemset(flush.buffer, 0, flush.words * 16));
  return flush;
}

cudaStream_t new_stream() {
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  return stream;
}

// `k` launches captured into one graph.
template <class Launch>
cudaGraphExec_t capture(cudaStream_t stream, Launch launch, int k) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  for (int i = 0; i < k; ++i) launch(stream);
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  return exec;
}

// Per replay: `before` (outside the events), then events around `timed`, synchronised; the
// first 3 replays dropped; the median of `replays` over `per` (the launches `timed` makes).
template <class Before, class Timed>
double median_replay_us(cudaStream_t stream, Before before, Timed timed, int replays, int per) {
  cudaEvent_t start, end;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&end));
  std::vector<double> times;
  for (int r = 0; r < replays + 3; ++r) {
    before(stream);
    CHECK(cudaEventRecord(start, stream));
    timed(stream);
    CHECK(cudaEventRecord(end, stream));
    CHECK(cudaEventSynchronize(end));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, start, end));
    if (r >= 3) times.push_back(ms * 1000.0 / per);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

const auto nothing = [](cudaStream_t) {};

// Events around a graph of `launches_per_graph` back to back, after 10 untimed launches.
template <class Launch>
double median_us_per_launch(Launch launch, int launches_per_graph, int replays) {
  cudaStream_t stream = new_stream();
  for (int i = 0; i < 10; ++i) launch(stream);
  CHECK(cudaStreamSynchronize(stream));
  cudaGraphExec_t exec = capture(stream, launch, launches_per_graph);
  return median_replay_us(
      stream, nothing, [&](cudaStream_t s) { CHECK(cudaGraphLaunch(exec, s)); }, replays, launches_per_graph);
}

// Events around one launch after `before` (the flush), 21 times: the median.
template <class Before, class Launch>
double median_us_isolated(Before before, Launch launch) {
  return median_replay_us(new_stream(), before, launch, 21, 1);
}

// Events around a graph of `k` launches after `before` (the flush), 21 times: the median / k.
template <class Before, class Launch>
double median_us_batched(Before before, Launch launch, int k) {
  cudaStream_t stream = new_stream();
  cudaGraphExec_t exec = capture(stream, launch, k);
  return median_replay_us(stream, before, [&](cudaStream_t s) { CHECK(cudaGraphLaunch(exec, s)); }, 21, k);
}

// kforecast's block: 10 samples queued back to back (spin, flush, events around a graph of k),
// then one synchronisation, so the GPU is never idle between samples; the median of 10 blocks'
// medians.
template <class Before, class Launch>
double median_us_queued(Before before, Launch launch, int k, bool print_spread = false) {
  cudaStream_t stream = new_stream();
  cudaGraphExec_t exec = capture(stream, launch, k);
  std::vector<cudaEvent_t> events(20);
  for (auto& event : events) CHECK(cudaEventCreate(&event));
  std::vector<double> medians, all;
  for (int b = 0; b < 11; ++b) {
    for (int s = 0; s < 10; ++s) {
      spin<<<1, 1, 0, stream>>>(20000);
      before(stream);
      CHECK(cudaEventRecord(events[2 * s], stream));
      CHECK(cudaGraphLaunch(exec, stream));
      CHECK(cudaEventRecord(events[2 * s + 1], stream));
    }
    CHECK(cudaStreamSynchronize(stream));
    std::vector<double> times;
    for (int s = 0; s < 10; ++s) {
      float ms = 0;
      CHECK(cudaEventElapsedTime(&ms, events[2 * s], events[2 * s + 1]));
      times.push_back(ms * 1000.0 / k);
    }
    std::sort(times.begin(), times.end());
    if (b > 0) medians.push_back((times[4] + times[5]) / 2);
    if (b > 0) all.insert(all.end(), times.begin(), times.end());
  }
  if (print_spread) {
    std::sort(all.begin(), all.end());
    std::printf("    samples (us per launch): min %.3f p10 %.3f p25 %.3f p50 %.3f p75 %.3f p90 %.3f max %.3f\n", all[0],
                all[all.size() / 10], all[all.size() / 4], all[all.size() / 2], all[3 * all.size() / 4],
                all[9 * all.size() / 10], all.back());
  }
  std::sort(medians.begin(), medians.end());
  return (medians[4] + medians[5]) / 2;
}

// chain<EXTRA> compiled the way kforecast compiles it (NVRTC, the GPU's architecture,
// -default-device, the name expression), so the same machine code can be timed here too.
CUfunction nvrtc_chain(const char* expression) {
  std::ifstream file("fixtures/bench/chain.cu");
  std::stringstream text;
  text << file.rdbuf();
  const std::string source = text.str();
  int device = 0, major = 0, minor = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  const std::string arch = "--gpu-architecture=sm_" + std::to_string(major * 10 + minor);
  const char* options[] = {arch.c_str(), "-default-device"};
  nvrtcProgram program;
  if (nvrtcCreateProgram(&program, source.c_str(), "chain.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS ||
      nvrtcAddNameExpression(program, expression) != NVRTC_SUCCESS ||
      nvrtcCompileProgram(program, 2, options) != NVRTC_SUCCESS) {
    std::fprintf(stderr, "NVRTC could not compile %s (run from the repository root)\n", expression);
    std::exit(1);
  }
  size_t size = 0;
  nvrtcGetCUBINSize(program, &size);
  std::vector<char> cubin(size);
  nvrtcGetCUBIN(program, cubin.data());
  if (const char* path = std::getenv("TIMER_CUBIN_OUT")) std::ofstream(path, std::ios::binary).write(cubin.data(), size);
  const char* lowered = nullptr;
  nvrtcGetLoweredName(program, expression, &lowered);
  CUmodule module;
  CUfunction function;
  if (cuModuleLoadData(&module, cubin.data()) != CUDA_SUCCESS ||
      cuModuleGetFunction(&function, module, lowered) != CUDA_SUCCESS) {
    std::fprintf(stderr, "could not load the NVRTC cubin of %s\n", expression);
    std::exit(1);
  }
  nvrtcDestroyProgram(&program);
  return function;
}

// The 5 us chain kernel with device memory laid out as kforecast lays it out (each buffer, then its
// pristine copy, in name order; then the flush buffer), before anything else is allocated, and
// NVRTC's code: whether the layout explains a difference from the figures below.
void chain_5us_in_kforecast_layout() {
  const int n = 131072, iters = 400;
  std::vector<float> host(n, 0.5f);
  float *x, *x_pristine, *y, *y_pristine;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&x_pristine, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&y_pristine, n * sizeof(float)));
  CHECK(cudaMemcpy(x, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const L2Flush flush = new_l2_flush();
  CUfunction function = nvrtc_chain("chain<0>");
  int count = n, steps = iters;
  void* arguments[] = {&x, &y, &count, &steps};
  const auto launch = [&](cudaStream_t s) {
    if (cuLaunchKernel(function, n / 256, 1, 1, 256, 1, 1, 0, s, arguments, nullptr) != CUDA_SUCCESS) std::exit(1);
  };
  for (int k : {4, 1, 2, 8}) {
    std::printf("chain-5us, kforecast's memory layout, NVRTC's code: batched (k=%d) %.3f us, queued:\n", k,
                median_us_batched(flush, launch, k));
    std::printf("    queued median %.3f us per launch\n", median_us_queued(flush, launch, k, true));
  }
}

int main() {
  chain_5us_in_kforecast_layout();
  const int n_max = 16777216;
  std::vector<float> host(n_max);
  std::mt19937 generator(1);
  std::uniform_real_distribution<float> uniform(-1, 1);
  for (auto& v : host) v = uniform(generator);
  float *x, *y;
  CHECK(cudaMalloc(&x, n_max * sizeof(float)));
  CHECK(cudaMalloc(&y, n_max * sizeof(float)));
  CHECK(cudaMemcpy(x, host.data(), n_max * sizeof(float), cudaMemcpyHostToDevice));
  const L2Flush flush = new_l2_flush();
  const double flush_us = median_us_per_launch(flush, 20, 21);
  // Warm and cold times of one kernel launch.
  const auto report = [&](const char* what, auto launch) {
    const double warm = median_us_per_launch(launch, 20, 21);
    const double both = median_us_per_launch(
        [&](cudaStream_t s) {
          flush(s);
          launch(s);
        },
        20, 21);
    const double isolated = median_us_isolated(flush, launch);
    const int k = std::max(1, static_cast<int>(std::ceil(20.0 / isolated)));
    const double batched = median_us_batched(flush, launch, k);
    // The same with the GPU idle for 20 us between the flush and the events: how much a kernel
    // started straight after the flush differs from one started on a quiet GPU.
    const double after_idle = median_us_batched(
        [&](cudaStream_t s) {
          flush(s);
          spin<<<1, 1, 0, s>>>(20000);
        },
        launch, k);
    const double queued = median_us_queued(flush, launch, k, k > 2);
    std::printf("%-44s warm %9.3f us   cold %9.3f us   isolated %9.3f us   batched (k=%d) %9.3f us"
                "   batched after idle %9.3f us   batched, queued %9.3f us per launch\n",
                what, warm, both - flush_us, isolated, k, batched, after_idle, queued);
  };
  struct Chain {
    const char* name;
    int n, iters;
  };
  for (Chain c : {Chain{"chain-5us", 131072, 400}, Chain{"chain-15us", 131072, 2000}, Chain{"chain-50us", 1048576, 1150}, Chain{"chain-500us", 1048576, 12500}}) {
    char what[96];
    std::snprintf(what, sizeof what, "%s (chain<0>, n=%d, iters=%d)", c.name, c.n, c.iters);
    report(what, [&](cudaStream_t s) { chain<0><<<(c.n + 255) / 256, 256, 0, s>>>(x, y, c.n, c.iters); });
    // The same with buffers of exactly the spec's size, as kforecast allocates them (x and y
    // above are 64 MiB each, for the copies).
    float *xs, *ys;
    CHECK(cudaMalloc(&xs, c.n * sizeof(float)));
    CHECK(cudaMalloc(&ys, c.n * sizeof(float)));
    CHECK(cudaMemcpy(xs, host.data(), c.n * sizeof(float), cudaMemcpyHostToDevice));
    std::snprintf(what, sizeof what, "  the same, buffers of n floats");
    report(what, [&](cudaStream_t s) { chain<0><<<(c.n + 255) / 256, 256, 0, s>>>(xs, ys, c.n, c.iters); });
    // And the machine code kforecast runs: chain<0> compiled by NVRTC, launched by the driver.
    static CUfunction nvrtc_function = nvrtc_chain("chain<0>");
    int n = c.n, iters = c.iters;
    void* arguments[] = {&xs, &ys, &n, &iters};
    std::snprintf(what, sizeof what, "  the same, NVRTC's code (as kforecast)");
    report(what, [&](cudaStream_t s) {
      if (cuLaunchKernel(nvrtc_function, (n + 255) / 256, 1, 1, 256, 1, 1, 0, s, arguments, nullptr) != CUDA_SUCCESS)
        std::exit(1);
    });
    CHECK(cudaFree(xs));
    CHECK(cudaFree(ys));
  }
  report("copy (n=16777216)", [&](cudaStream_t s) { copy<<<(n_max + 255) / 256, 256, 0, s>>>(x, y, n_max); });
  report("copy_strided (n=16777216)",
         [&](cudaStream_t s) { copy_strided<<<(n_max + 255) / 256, 256, 0, s>>>(x, y, n_max); });
  std::printf("(medians of 21 replays of a graph of 20; the flush alone: %.3f us)\n", flush_us);
  return 0;
}
