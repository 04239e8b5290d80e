// SPDX-License-Identifier: Apache-2.0
#include "llm/gpu_properties.hpp"

#include <vector>

#include <fmt/format.h>

#include "hardware/arch_limits.hpp"
#include "hardware/gpu_specs.hpp"

namespace kforecast::llm {
namespace {

// The prompt can describe every GPU of the one table (hardware/gpu_specs.hpp), in its order: what
// `forecast.hardware` matches and an unknown name's message lists. The per-SM limits are its
// compute capability's (hardware/arch_limits.hpp). A figure the table lacks (zero) is left out.
GpuProperties properties(const hardware::GpuSpec& spec) {
  const hardware::ArchLimits limits = hardware::arch_limits(spec.compute_capability).value();
  return {std::string(spec.name),
          std::string(spec.full_name),
          std::string(spec.architecture),
          fmt::format("sm_{}", spec.compute_capability),
          spec.multiprocessors,
          spec.boost_clock_mhz / 1000.0,
          spec.memory_gib,
          static_cast<double>(spec.memory_bandwidth_gbs),
          spec.l2_cache_mib,
          static_cast<int>(limits.shared_per_sm / 1024),
          limits.registers_per_sm,
          limits.max_warps_per_sm * 32,
          spec.fp32_tflops,
          spec.fp16_tensor_tflops};
}

const std::vector<GpuProperties>& table() {
  static const std::vector<GpuProperties> gpus = [] {  // on first use: no static-order hazard
    std::vector<GpuProperties> out;
    for (const hardware::GpuSpec& spec : hardware::gpu_specs()) out.push_back(properties(spec));
    return out;
  }();
  return gpus;
}

std::string folded(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == ' ' || c == '-' || c == '_') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

}  // namespace

std::optional<GpuProperties> find_gpu(std::string_view name) {
  const std::string wanted = folded(name);
  for (const auto& gpu : table())
    if (folded(gpu.name) == wanted) return gpu;
  return std::nullopt;
}

std::string describe(const GpuProperties& gpu) {
  std::string text = fmt::format("{} ({} architecture, {})\n", gpu.full_name, gpu.architecture, gpu.arch);
  if (gpu.multiprocessors > 0) text += fmt::format("- {} SMs", gpu.multiprocessors);
  if (gpu.boost_clock_ghz > 0) text += fmt::format(" at up to {:.2f} GHz", gpu.boost_clock_ghz);
  if (gpu.multiprocessors > 0) text += "\n";
  if (gpu.memory_gib > 0) text += fmt::format("- {:g} GiB device memory", gpu.memory_gib);
  if (gpu.memory_bandwidth_gbs > 0) text += fmt::format(", {:g} GB/s bandwidth", gpu.memory_bandwidth_gbs);
  if (gpu.memory_gib > 0 || gpu.memory_bandwidth_gbs > 0) text += "\n";
  if (gpu.l2_cache_mib > 0) text += fmt::format("- {:g} MiB L2 cache\n", gpu.l2_cache_mib);
  if (gpu.shared_memory_per_sm_kib > 0)
    text += fmt::format("- up to {} KiB shared memory per SM, {} registers per SM, {} threads per SM\n",
                        gpu.shared_memory_per_sm_kib, gpu.registers_per_sm, gpu.max_threads_per_sm);
  if (gpu.fp32_tflops > 0) text += fmt::format("- {:g} TFLOPS FP32", gpu.fp32_tflops);
  if (gpu.fp16_tensor_tflops > 0)
    text += fmt::format(", {:g} TFLOPS FP16 tensor cores (dense)", gpu.fp16_tensor_tflops);
  if (gpu.fp32_tflops > 0) text += "\n";
  return text;
}

}  // namespace kforecast::llm
