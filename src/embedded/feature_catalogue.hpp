// SPDX-License-Identifier: Apache-2.0
#pragma once

// Every feature the embedded forecaster reads, in one table: its name (as the model's parameter
// file spells it), where it comes from, and how a change in it reads in a rationale. To add a
// feature: a row in feature_catalogue.cpp and a line where its group is extracted.

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

namespace kforecast::embedded {

// Where a feature comes from. A group is present or missing as a whole: source features are
// always there, compiler features only where NVRTC compiled the kernel, launch features only
// where a launch was given.
enum class FeatureGroup { source, compiler, launch };

enum class Feature : std::size_t {
  // source (the kernel's body and the device functions it reaches)
  loops,
  loop_depth,
  unroll_pragmas,
  shared_arrays,
  padded_shared_arrays,  // a padded dimension: the usual cure for shared-memory bank conflicts
  barriers,
  atomics,
  warp_shuffles,
  vector_accesses,  // float4, int4, uint4, double2, float2, ... in the code
  tensor_core_code,
  thread_linear_accesses,   // subscripts indexed by threadIdx.x (or a value linear in it)
  thread_strided_accesses,  // subscripts where a thread index is multiplied: a stride between threads
  thread_strided_stores,    // of those, the ones written to (a strided store costs more than a strided load)
  local_arrays,             // arrays declared in the body (may live in local memory)
  fp64_code,                // double, and floating literals without an f suffix
  math_calls,               // expf, tanhf, rsqrtf, __expf, ... (special-function unit work)
  branches,
  source_tokens,
  // compiler (NVRTC ptxas report and PTX)
  registers,
  spill_bytes,
  stack_bytes,
  static_shared_bytes,
  ptx_instructions,
  global_loads,
  global_loads_128,  // 128-bit (vector) global loads
  global_stores,
  shared_loads,
  shared_stores,
  local_accesses,
  fma_instructions,
  fp64_instructions,
  tensor_instructions,
  atomic_instructions,
  branch_instructions,
  special_instructions,
  shuffle_instructions,
  barrier_instructions,
  global_load_bytes,  // per thread and pass, by the access widths
  global_store_bytes,
  global_access_bits,          // mean width of a global access: wide accesses move more per instruction
  shared_atomic_instructions,  // on-SM atomics (privatised histograms)
  global_atomic_instructions,  // atomics to global memory (contended in L2)
  fp32_instructions,
  fp64_share,           // of the instructions, 0..1: FP64 runs at a fraction of FP32's rate on most GPUs
  special_share,        // of the instructions, 0..1: the SFU has an eighth of FP32's lanes
  ptx_loops,            // backward branches: loops the compiler did not unroll
  shared_per_global,    // shared accesses per global access: staging work per element moved
  barriers_per_global,  // barriers per global access: synchronisation per element moved
  // launch (with the target GPU)
  block_threads,
  grid_blocks,
  dynamic_shared_bytes,
  occupancy,  // theoretical, 0..1
  waves,      // blocks / (resident blocks per SM x SMs)
  // launch with compiler facts
  bytes_in_flight,  // per SM: resident threads x global bytes each loads per pass (Little's law: bandwidth
                    // needs latency x bandwidth bytes in flight, about 20 KB per SM on an H100)
  // the roofline estimate (time_estimate.hpp), where the PTX keeps no loop
  est_dram_time,     // microseconds: threads x global bytes / DRAM bandwidth
  est_compute_time,  // microseconds: threads x instructions / the SMs' throughput
  est_time,          // the larger of the two
};

inline constexpr std::size_t feature_count = static_cast<std::size_t>(Feature::est_time) + 1;

// How a feature enters the model as a difference between candidate and reference.
enum class Scale {
  log_count,  // log2((1 + candidate) / (1 + reference)): counts and sizes, scale-free
  linear,     // candidate - reference: already a fraction (occupancy)
  log_ratio,  // log2(candidate / reference) where both are positive, else 0 (unknown): estimates
};

// Which way more of a feature can move the speed, where how GPUs work settles it whatever else
// changes (spilling to local memory never speeds a kernel up): training keeps such a weight on
// that side of zero, so a rationale never says "estimated time 60 us -> 120 us (faster)" because
// of a correlation in the corpus. `free`: either way, as the data says.
enum class Direction { free, faster, slower };

struct FeatureInfo {
  Feature feature;
  std::string_view name;  // "spill_bytes"
  FeatureGroup group;
  Scale scale;
  std::string_view label;  // "spills (bytes)", as a rationale prints it
  Direction direction = Direction::free;
};

std::span<const FeatureInfo, feature_count> all_features();
const FeatureInfo& info(Feature feature);
// The feature with this name, or nullptr.
const FeatureInfo* find_feature(std::string_view name);
std::string_view group_name(FeatureGroup group);

constexpr std::size_t index(Feature feature) { return static_cast<std::size_t>(feature); }

}  // namespace kforecast::embedded
