// Seed for the cubin fuzz target: one kernel of each shape the reader handles. Built from the
// repository root:
//   nvcc -cubin -arch=sm_90 tests/fuzz/cubin_seeds.cu -o fixtures/fuzz/cubin/whole_program_sm90.cubin
//   nvcc -cubin -arch=sm_90 -rdc=true tests/fuzz/cubin_seeds.cu -o fixtures/fuzz/cubin/relocatable_sm90.cubin
#include <cassert>
#include <cstdio>
namespace { struct Local { float v; }; }
__constant__ float scale[4];
__device__ int hits;
__device__ __noinline__ float helper(float x) { return x * scale[1] + 1.0f; }
template <int N> __global__ void __launch_bounds__(128) tiled(float* p) {
  __shared__ float tile[N];
  tile[threadIdx.x % N] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = helper(tile[(threadIdx.x + 1) % N]);
  atomicAdd(&hits, 1);
}
template __global__ void tiled<32>(float*);
// printf and assert reach module data through an offset a MOV sets (module_reference.hpp).
template <class T> __global__ void withlocal(T t, float* o) {
  if (t.v < 0.0f) printf("negative %f\n", t.v);
  assert(o != nullptr);
  o[0] = t.v;
}
template __global__ void withlocal<Local>(Local, float*);
