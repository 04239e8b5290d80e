// SPDX-License-Identifier: Apache-2.0
#include "llm/gpu_properties.hpp"

#include <array>

#include <fmt/format.h>

namespace kforecast::llm {
namespace {

// Figures from NVIDIA's datasheets and the CUDA programming guide's compute-capability tables.
// Extend by adding a row; the name column is what `forecast.hardware` matches.
const std::array<GpuProperties, 11> table{{
    {"V100", "NVIDIA Tesla V100 SXM2 32GB", "Volta", "sm_70", 80, 1.53, 32, 900, 6, 96, 65536, 2048, 15.7, 125},
    {"T4", "NVIDIA T4 16GB", "Turing", "sm_75", 40, 1.59, 16, 320, 4, 64, 65536, 1024, 8.1, 65},
    {"A10", "NVIDIA A10 24GB", "Ampere", "sm_86", 72, 1.695, 24, 600, 6, 100, 65536, 1536, 31.2, 125},
    {"A100", "NVIDIA A100 SXM4 80GB", "Ampere", "sm_80", 108, 1.41, 80, 2039, 40, 164, 65536, 2048, 19.5, 312},
    {"L4", "NVIDIA L4 24GB", "Ada Lovelace", "sm_89", 58, 2.04, 24, 300, 48, 100, 65536, 1536, 30.3, 121},
    {"L40S", "NVIDIA L40S 48GB", "Ada Lovelace", "sm_89", 142, 2.52, 48, 864, 96, 100, 65536, 1536, 91.6, 362},
    {"H100", "NVIDIA H100 SXM5 80GB", "Hopper", "sm_90", 132, 1.98, 80, 3350, 50, 228, 65536, 2048, 67, 989},
    {"H200", "NVIDIA H200 SXM 141GB", "Hopper", "sm_90", 132, 1.98, 141, 4800, 50, 228, 65536, 2048, 67, 989},
    {"B200", "NVIDIA B200 180GB", "Blackwell", "sm_100", 148, 1.965, 180, 8000, 126, 228, 65536, 2048, 80, 2250},
    {"RTX 4090", "NVIDIA GeForce RTX 4090 24GB", "Ada Lovelace", "sm_89", 128, 2.52, 24, 1008, 72, 100, 65536, 1536,
     82.6, 165},
    {"RTX 6000 Ada", "NVIDIA RTX 6000 Ada Generation 48GB", "Ada Lovelace", "sm_89", 142, 2.505, 48, 960, 96, 100,
     65536, 1536, 91.1, 364},
}};

std::string folded(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == ' ' || c == '-' || c == '_') continue;
    out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  }
  return out;
}

}  // namespace

std::span<const GpuProperties> known_gpus() { return table; }

std::optional<GpuProperties> find_gpu(std::string_view name) {
  const std::string wanted = folded(name);
  for (const auto& gpu : table)
    if (folded(gpu.name) == wanted) return gpu;
  return std::nullopt;
}

std::string known_gpu_names() {
  std::string names;
  for (const auto& gpu : table) names += (names.empty() ? "" : ", ") + gpu.name;
  return names;
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
