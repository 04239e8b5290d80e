// SPDX-License-Identifier: Apache-2.0
#pragma once

// What the prompt tells the model about the target GPU: a row of the built-in table of current
// data-centre and workstation GPUs (gpu/gpu_specs.hpp: datasheet figures, dense, without
// sparsity), or the local GPU's queried properties where they are known.

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kforecast::llm {

struct GpuProperties {
  std::string name;          // "H100"
  std::string full_name;     // "NVIDIA H100 SXM5 80GB"
  std::string architecture;  // "Hopper"
  std::string arch;          // "sm_90"
  int multiprocessors = 0;
  double boost_clock_ghz = 0;
  double memory_gib = 0;
  double memory_bandwidth_gbs = 0;
  double l2_cache_mib = 0;
  int shared_memory_per_sm_kib = 0;  // the maximum configurable
  int registers_per_sm = 65536;
  int max_threads_per_sm = 0;
  double fp32_tflops = 0;
  double fp16_tensor_tflops = 0;  // dense
};

// Case-insensitive, ignoring spaces and dashes: "h100", "RTX 4090", "rtx-4090", "L40S".
std::optional<GpuProperties> find_gpu(std::string_view name);

// The block the prompt shows, one property per line.
std::string describe(const GpuProperties& gpu);

}  // namespace kforecast::llm
