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

// Buffers are filled and outputs compared here, on the GPU: a buffer of a gigabyte drawn on the
// host, sent over and its outputs sent back cost seconds of a decision, the GPU's few
// milliseconds. Lane kinds (bench/device_checks.hpp): 0 f32, 1 f64, 2 f16, 3 bf16, 4 i8, 5 i16,
// 6 i32, 7 i64, 8 u8, 9 u16, 10 u32, 11 u64. Distributions: 0 uniform, 1 normal, 2 constant,
// 3 iota, 4 random integers, as the host's draws (bench/host_buffers.cpp) with the same key.

// SplitMix64's finalizer over (key, lane): the host's LaneRandom, lane for lane.
__device__ unsigned long long kf_bits(unsigned long long key, unsigned long long counter) {
  unsigned long long z = key + (counter + 1) * 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
__device__ double kf_unit(unsigned long long key, unsigned long long counter) {
  return (double)(kf_bits(key, counter) >> 11) * 1.1102230246251565e-16;  // 2^-53
}

__device__ double kf_draw(int distribution, double a, double b, unsigned long long key, unsigned long long lane) {
  switch (distribution) {
    case 0: return a + (b - a) * kf_unit(key, lane);
    case 1: {  // Box-Muller: lanes 2k and 2k+1 share draws 2k and 2k+1
      const unsigned long long pair = lane & ~1ull;
      const double radius = b * sqrt(-2.0 * log(1.0 - kf_unit(key, pair)));
      const double angle = 6.283185307179586 * kf_unit(key, pair + 1);
      return a + radius * ((lane & 1ull) ? sin(angle) : cos(angle));
    }
    case 2: return a;
    case 3: return a + b * (double)lane;
    default: {
      const unsigned long long span = (unsigned long long)(b - a) + 1;
      return a + (double)__umul64hi(kf_bits(key, lane), span);
    }
  }
}

__device__ unsigned short kf_to_half(float v) {
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(v));
  return h;
}
__device__ float kf_from_half(unsigned short h) {
  float v;
  asm("cvt.f32.f16 %0, %1;" : "=f"(v) : "h"(h));
  return v;
}
__device__ unsigned short kf_to_bfloat16(float v) {  // round to nearest even; NaN stays NaN
  unsigned int f = __float_as_uint(v);
  if ((f & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((f >> 16) | 0x40u);
  f += 0x7fffu + ((f >> 16) & 1u);
  return (unsigned short)(f >> 16);
}

__device__ void kf_store(void* out, unsigned long long lane, int kind, double v) {
  switch (kind) {
    case 0: ((float*)out)[lane] = (float)v; return;
    case 1: ((double*)out)[lane] = v; return;
    case 2: ((unsigned short*)out)[lane] = kf_to_half((float)v); return;
    case 3: ((unsigned short*)out)[lane] = kf_to_bfloat16((float)v); return;
    case 4: case 8: ((unsigned char*)out)[lane] = (unsigned char)llround(v); return;
    case 5: case 9: ((unsigned short*)out)[lane] = (unsigned short)llround(v); return;
    case 6: case 10: ((unsigned int*)out)[lane] = (unsigned int)llround(v); return;
    default: ((long long*)out)[lane] = llround(v); return;
  }
}

__device__ double kf_load(const void* in, unsigned long long lane, int kind) {
  switch (kind) {
    case 0: return ((const float*)in)[lane];
    case 1: return ((const double*)in)[lane];
    case 2: return kf_from_half(((const unsigned short*)in)[lane]);
    case 3: return __uint_as_float((unsigned int)((const unsigned short*)in)[lane] << 16);
    case 4: return ((const signed char*)in)[lane];
    case 5: return ((const short*)in)[lane];
    case 6: return ((const int*)in)[lane];
    case 7: return (double)((const long long*)in)[lane];
    case 8: return ((const unsigned char*)in)[lane];
    case 9: return ((const unsigned short*)in)[lane];
    case 10: return ((const unsigned int*)in)[lane];
    default: return (double)((const unsigned long long*)in)[lane];
  }
}

extern "C" __global__ void kforecast_fill(void* out, unsigned long long lanes, int kind, int distribution, double a,
                                          double b, unsigned long long key) {
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < lanes;
       i += (unsigned long long)gridDim.x * blockDim.x)
    kf_store(out, i, kind, kf_draw(distribution, a, b, key, i));
}

// The host's comparison (bench/host_buffers.cpp, compare_outputs), lane by lane, into result:
// [0] lanes that disagree, [1] the first of them (~0 where none), [2] and [3] the largest
// absolute and relative errors over lanes where both are finite, as the bits of non-negative
// doubles (which order as unsigned integers). result starts as {0, ~0, 0, 0}.
extern "C" __global__ void kforecast_compare(const void* reference, const void* candidate, unsigned long long lanes,
                                             int kind, double rtol, double atol, unsigned long long* result) {
  unsigned long long mismatches = 0, first = ~0ull;
  double max_abs = 0, max_rel = 0;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < lanes;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    const double r = kf_load(reference, i, kind), c = kf_load(candidate, i, kind);
    const double abs_error = fabs(c - r);
    bool agree = false;
    if (isfinite(abs_error)) {
      max_abs = fmax(max_abs, abs_error);
      const double rel_error = abs_error / fabs(r);
      if (r != 0 && isfinite(rel_error)) max_rel = fmax(max_rel, rel_error);
      agree = abs_error <= atol + rtol * fabs(r);
    } else if (isnan(r) || isnan(c)) {
      agree = isnan(r) && isnan(c);
    } else if (isinf(r) || isinf(c)) {
      agree = r == c;
    } else {
      max_abs = abs_error;
    }
    if (!agree) {
      ++mismatches;
      if (i < first) first = i;
    }
  }
  if (mismatches) {
    atomicAdd(&result[0], mismatches);
    atomicMin(&result[1], first);
  }
  if (max_abs > 0) atomicMax(&result[2], (unsigned long long)__double_as_longlong(max_abs));
  if (max_rel > 0) atomicMax(&result[3], (unsigned long long)__double_as_longlong(max_rel));
}
)cuda";

}  // namespace

std::string_view runner_support_source() { return support_source; }

}  // namespace kforecast::bench
