// SPDX-License-Identifier: Apache-2.0
#include "hardware/gpu_specs.hpp"

#include <array>

namespace kforecast::hardware {
namespace {

// NVIDIA's datasheets (SXM where there is a choice; dense throughput). Extend by adding a row,
// then name it in the lists of the forecasters that should offer it. A figure no user reads yet
// is left 0 rather than guessed (the H800's cache and throughput: only the embedded forecaster
// offers it, and it reads SMs, clock and bandwidth).
constexpr std::array<GpuSpec, 12> specs{{
    {"V100", "NVIDIA Tesla V100 SXM2 32GB", "Volta", 70, 80, 1530, 32, 900, 6, 15.7, 125},
    {"T4", "NVIDIA T4 16GB", "Turing", 75, 40, 1590, 16, 320, 4, 8.1, 65},
    {"A10", "NVIDIA A10 24GB", "Ampere", 86, 72, 1695, 24, 600, 6, 31.2, 125},
    {"A100", "NVIDIA A100 SXM4 80GB", "Ampere", 80, 108, 1410, 80, 2039, 40, 19.5, 312},
    {"L4", "NVIDIA L4 24GB", "Ada Lovelace", 89, 58, 2040, 24, 300, 48, 30.3, 121},
    {"L40S", "NVIDIA L40S 48GB", "Ada Lovelace", 89, 142, 2520, 48, 864, 96, 91.6, 362},
    {"H100", "NVIDIA H100 SXM5 80GB", "Hopper", 90, 132, 1980, 80, 3350, 50, 67, 989},
    {"H200", "NVIDIA H200 SXM 141GB", "Hopper", 90, 132, 1980, 141, 4800, 50, 67, 989},
    {"H800", "NVIDIA H800 SXM5 80GB", "Hopper", 90, 132, 1980, 80, 3350, 0, 0, 0},
    {"B200", "NVIDIA B200 180GB", "Blackwell", 100, 148, 1965, 180, 8000, 126, 80, 2250},
    {"RTX 4090", "NVIDIA GeForce RTX 4090 24GB", "Ada Lovelace", 89, 128, 2520, 24, 1008, 72, 82.6, 165},
    {"RTX 6000 Ada", "NVIDIA RTX 6000 Ada Generation 48GB", "Ada Lovelace", 89, 142, 2505, 48, 960, 96, 91.1, 364},
}};

}  // namespace

std::span<const GpuSpec> gpu_specs() { return specs; }

std::optional<GpuSpec> gpu_spec(std::string_view name) {
  for (const GpuSpec& spec : specs)
    if (spec.name == name) return spec;
  return std::nullopt;
}

std::string gpu_names() {
  std::string names;
  for (const GpuSpec& spec : gpu_specs()) names += std::string(names.empty() ? "" : ", ") + std::string(spec.name);
  return names;
}

}  // namespace kforecast::hardware
