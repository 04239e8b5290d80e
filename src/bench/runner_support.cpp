// SPDX-License-Identifier: Apache-2.0
// The device code the runner compiles beside the kernels (runner.hpp, runner_support_source).
#include "bench/runner.hpp"

namespace kforecast::bench {
namespace {

constexpr std::string_view support_source = R"cuda(
// Holds the stream for `nanoseconds` so the launches queued after it start back to back.
extern "C" __global__ void kforecast_spin(unsigned long long nanoseconds) {
  unsigned long long start, now;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
  } while (now - start < nanoseconds);
}

// Reads `count` 16-byte words, so the L2 holds them instead of the kernels' data. Reading leaves
// clean lines: the measured kernel pays no write-back for them, as it would after a memset.
extern "C" __global__ void kforecast_flush(const int4* data, unsigned long long count, int* sink) {
  int folded = 0;
  for (unsigned long long i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const int4 v = data[i];
    folded ^= v.x ^ v.y ^ v.z ^ v.w;
  }
  if (folded == 0x7fffffff) *sink = folded;
}
)cuda";

}  // namespace

std::string_view runner_support_source() { return support_source; }

}  // namespace kforecast::bench
