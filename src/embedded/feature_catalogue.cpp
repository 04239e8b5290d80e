// SPDX-License-Identifier: Apache-2.0
#include "embedded/feature_catalogue.hpp"

#include <algorithm>

#include "base/error.hpp"

namespace kforecast::embedded {
namespace {

using enum Feature;
using enum FeatureGroup;
using enum Scale;

constexpr std::array<FeatureInfo, feature_count> catalogue{{
    {loops, "loops", source, log_count, "loops"},
    {loop_depth, "loop_depth", source, log_count, "loop nesting depth"},
    {unroll_pragmas, "unroll_pragmas", source, log_count, "#pragma unroll"},
    {shared_arrays, "shared_arrays", source, log_count, "__shared__ arrays"},
    {padded_shared_arrays, "padded_shared_arrays", source, log_count, "padded __shared__ arrays", Direction::faster},
    {barriers, "barriers", source, log_count, "barriers in the source"},
    {atomics, "atomics", source, log_count, "atomic calls"},
    {warp_shuffles, "warp_shuffles", source, log_count, "warp shuffles"},
    {vector_accesses, "vector_accesses", source, log_count, "vector types (float4, ...)"},
    {tensor_core_code, "tensor_core_code", source, log_count, "tensor-core code (mma, wmma)"},
    {thread_linear_accesses, "thread_linear_accesses", source, log_count, "accesses indexed by threadIdx.x"},
    {thread_strided_accesses, "thread_strided_accesses", source, log_count, "accesses strided between threads",
     Direction::slower},
    {thread_strided_stores, "thread_strided_stores", source, log_count, "stores strided between threads",
     Direction::slower},
    {local_arrays, "local_arrays", source, log_count, "per-thread arrays"},
    {fp64_code, "fp64_code", source, log_count, "double-precision code"},
    {math_calls, "math_calls", source, log_count, "math-library calls"},
    {branches, "branches", source, log_count, "branches in the source"},
    {source_tokens, "source_tokens", source, log_count, "source size (tokens)"},
    {registers, "registers", compiler, log_count, "registers"},
    {spill_bytes, "spill_bytes", compiler, log_count, "spills (bytes)", Direction::slower},
    {stack_bytes, "stack_bytes", compiler, log_count, "stack frame (bytes)"},
    {static_shared_bytes, "static_shared_bytes", compiler, log_count, "static shared memory (bytes)"},
    {ptx_instructions, "ptx_instructions", compiler, log_count, "PTX instructions"},
    {global_loads, "global_loads", compiler, log_count, "global loads"},
    {global_loads_128, "global_loads_128", compiler, log_count, "128-bit global loads"},
    {global_stores, "global_stores", compiler, log_count, "global stores"},
    {shared_loads, "shared_loads", compiler, log_count, "shared loads"},
    {shared_stores, "shared_stores", compiler, log_count, "shared stores"},
    {local_accesses, "local_accesses", compiler, log_count, "local-memory accesses", Direction::slower},
    {fma_instructions, "fma_instructions", compiler, log_count, "FMA instructions"},
    {fp64_instructions, "fp64_instructions", compiler, log_count, "FP64 instructions"},
    {tensor_instructions, "tensor_instructions", compiler, log_count, "tensor-core instructions"},
    {atomic_instructions, "atomic_instructions", compiler, log_count, "atomic instructions"},
    {branch_instructions, "branch_instructions", compiler, log_count, "branch instructions"},
    {special_instructions, "special_instructions", compiler, log_count, "special-function instructions"},
    {shuffle_instructions, "shuffle_instructions", compiler, log_count, "shuffle instructions"},
    {barrier_instructions, "barrier_instructions", compiler, log_count, "barrier instructions"},
    {global_load_bytes, "global_load_bytes", compiler, log_count, "global bytes loaded per thread"},
    {global_store_bytes, "global_store_bytes", compiler, log_count, "global bytes stored per thread"},
    {global_access_bits, "global_access_bits", compiler, log_count, "global access width (bits)", Direction::faster},
    {shared_atomic_instructions, "shared_atomic_instructions", compiler, log_count, "shared-memory atomics"},
    {global_atomic_instructions, "global_atomic_instructions", compiler, log_count, "global-memory atomics"},
    {fp32_instructions, "fp32_instructions", compiler, log_count, "FP32 instructions"},
    {fp64_share, "fp64_share", compiler, linear, "FP64 share of instructions", Direction::slower},
    {special_share, "special_share", compiler, linear, "special-function share of instructions"},
    {ptx_loops, "ptx_loops", compiler, log_count, "loops kept in PTX"},
    {shared_per_global, "shared_per_global", compiler, log_count, "shared accesses per global access"},
    {barriers_per_global, "barriers_per_global", compiler, log_count, "barriers per global access"},
    {block_threads, "block_threads", launch, log_count, "threads per block"},
    {grid_blocks, "grid_blocks", launch, log_count, "blocks"},
    {dynamic_shared_bytes, "dynamic_shared_bytes", launch, log_count, "dynamic shared memory (bytes)"},
    {occupancy, "occupancy", launch, linear, "occupancy"},
    {waves, "waves", launch, log_count, "waves per SM"},
    {bytes_in_flight, "bytes_in_flight", launch, log_count, "global bytes in flight per SM", Direction::faster},
    {est_dram_time, "est_dram_time", launch, log_ratio, "estimated DRAM time", Direction::slower},
    {est_compute_time, "est_compute_time", launch, log_ratio, "estimated compute time", Direction::slower},
    {est_time, "est_time", launch, log_ratio, "estimated time (roofline)", Direction::slower},
}};

constexpr bool catalogue_in_order() {
  for (std::size_t i = 0; i < catalogue.size(); ++i)
    if (index(catalogue[i].feature) != i) return false;
  return true;
}
static_assert(catalogue_in_order(), "rows must follow the order of enum Feature");

}  // namespace

std::span<const FeatureInfo, feature_count> all_features() { return catalogue; }

const FeatureInfo& info(Feature feature) { return catalogue[index(feature)]; }

const FeatureInfo* find_feature(std::string_view name) {
  auto it = std::ranges::find(catalogue, name, &FeatureInfo::name);
  return it == catalogue.end() ? nullptr : &*it;
}

std::string_view group_name(FeatureGroup group) {
  switch (group) {
    case FeatureGroup::source:
      return "source";
    case FeatureGroup::compiler:
      return "compiler";
    case FeatureGroup::launch:
      return "launch";
  }
  throw Fatal(ExitCode::could_not_run, "unknown feature group");
}

}  // namespace kforecast::embedded
