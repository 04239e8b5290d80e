// SPDX-License-Identifier: Apache-2.0
#pragma once

// The one table of GPUs kforecast knows by name: each part's datasheet figures, written once. The
// embedded forecaster (its roofline estimate) and the LLM prompt (its GPU description) each pick
// the rows they offer and read their figures from here.

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kforecast::hardware {

struct GpuSpec {
  std::string_view name;          // as forecast.hardware names it: "H100"
  std::string_view full_name;     // "NVIDIA H100 SXM5 80GB"
  std::string_view architecture;  // "Hopper"
  int compute_capability = 0;     // 90 for sm_90; its per-SM limits are in arch_limits.hpp
  int multiprocessors = 0;
  int boost_clock_mhz = 0;  // cycles per microsecond
  double memory_gib = 0;
  int memory_bandwidth_gbs = 0;  // peak DRAM bandwidth, 10^9 bytes per second
  double l2_cache_mib = 0;
  double fp32_tflops = 0;
  double fp16_tensor_tflops = 0;  // dense, without sparsity
};

std::span<const GpuSpec> gpu_specs();

// The table's names, in its order, for a message about a name it does not know: "V100, T4, ...".
std::string gpu_names();

// The row of exactly this table name ("H100"), or nullopt. Matching what a user typed is each
// user's own rule (llm::find_gpu, embedded::find_gpu).
std::optional<GpuSpec> gpu_spec(std::string_view name);

}  // namespace kforecast::hardware
