// SPDX-License-Identifier: Apache-2.0
#include "embedded/occupancy.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace kforecast::embedded {
namespace {

// CUDA C++ Programming Guide, "Compute capabilities", table of technical specifications; the
// throughputs from its "Arithmetic instructions" table (32-bit floating add/mul/fma; 64-bit;
// special functions; 32-bit integer; and one warp's loads or stores per clock).
constexpr std::int64_t kib = 1024;  // shared memory is given in KiB
constexpr std::array<ArchLimits, 8> limits_table{{
    {70, 1024, 64, 32, 65536, 255, 256, 96 * kib, 96 * kib, 256, 0, 64, 32, 16, 64, 32},
    {75, 1024, 32, 16, 65536, 255, 256, 64 * kib, 64 * kib, 256, 0, 64, 2, 16, 64, 32},
    {80, 1024, 64, 32, 65536, 255, 256, 164 * kib, 163 * kib, 128, 1024, 64, 32, 16, 64, 32},
    {86, 1024, 48, 16, 65536, 255, 256, 100 * kib, 99 * kib, 128, 1024, 128, 2, 16, 64, 32},
    {87, 1024, 48, 16, 65536, 255, 256, 164 * kib, 163 * kib, 128, 1024, 128, 2, 16, 64, 32},
    {89, 1024, 48, 24, 65536, 255, 256, 100 * kib, 99 * kib, 128, 1024, 128, 2, 16, 64, 32},
    {90, 1024, 64, 32, 65536, 255, 256, 228 * kib, 227 * kib, 128, 1024, 128, 64, 16, 64, 32},
    {100, 1024, 64, 32, 65536, 255, 256, 228 * kib, 227 * kib, 128, 1024, 128, 64, 16, 64, 32},
}};

// SM counts, boost clocks and peak DRAM bandwidth of the data-centre parts (SXM where there is
// a choice), from NVIDIA's product specifications.
constexpr std::array<Gpu, 10> gpus{{
    {"H100", 90, 132, 1980, 3350},
    {"H200", 90, 132, 1980, 4800},
    {"H800", 90, 132, 1980, 3350},
    {"A100", 80, 108, 1410, 2039},
    {"A10", 86, 72, 1695, 600},
    {"L4", 89, 58, 2040, 300},
    {"L40S", 89, 142, 2520, 864},
    {"V100", 70, 80, 1530, 900},
    {"T4", 75, 40, 1590, 320},
    {"B200", 100, 148, 1965, 8000},
}};

bool iequal_prefix_word(std::string_view text, std::string_view word) {
  if (text.size() < word.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (std::toupper(static_cast<unsigned char>(text[i])) != std::toupper(static_cast<unsigned char>(word[i])))
      return false;
  return text.size() == word.size() || !std::isalnum(static_cast<unsigned char>(text[word.size()]));
}

std::int64_t round_up(std::int64_t value, std::int64_t unit) {
  return unit <= 0 ? value : (value + unit - 1) / unit * unit;
}

}  // namespace

std::span<const ArchLimits> all_arch_limits() { return limits_table; }
std::span<const Gpu> all_gpus() { return gpus; }

std::optional<ArchLimits> arch_limits(int compute_capability) {
  for (const ArchLimits& limits : limits_table)
    if (limits.compute_capability == compute_capability) return limits;
  return std::nullopt;
}

std::optional<Gpu> find_gpu(std::string_view name) {
  if (iequal_prefix_word(name, "NVIDIA")) name.remove_prefix(std::min<std::size_t>(7, name.size()));
  // Longest names first, so "L40S" is not read as "L4" and "A100" not as "A10".
  std::array<Gpu, gpus.size()> by_length = gpus;
  std::ranges::sort(by_length, [](const Gpu& a, const Gpu& b) { return a.name.size() > b.name.size(); });
  for (const Gpu& gpu : by_length)
    if (iequal_prefix_word(name, gpu.name)) return gpu;
  return std::nullopt;
}

Occupancy theoretical_occupancy(const ArchLimits& limits, const BlockResources& block) {
  Occupancy result;
  if (block.threads <= 0 || block.threads > limits.max_threads_per_block ||
      block.registers_per_thread > limits.max_registers_per_thread || block.shared_bytes < 0 ||
      block.shared_bytes > limits.max_shared_per_block) {
    return result;
  }
  const int warps_per_block = (block.threads + 31) / 32;
  const int by_warps = limits.max_warps_per_sm / warps_per_block;
  const int by_blocks = limits.max_blocks_per_sm;
  constexpr int unlimited = 1 << 20;
  int by_registers = unlimited;
  if (block.registers_per_thread > 0) {
    const std::int64_t per_warp =
        round_up(std::int64_t{block.registers_per_thread} * 32, limits.register_allocation_unit);
    by_registers = static_cast<int>(limits.registers_per_sm / per_warp) / warps_per_block;
  }
  int by_shared = unlimited;
  if (block.shared_bytes > 0) {
    const std::int64_t per_block =
        round_up(block.shared_bytes + limits.shared_reserved_per_block, limits.shared_allocation_unit);
    by_shared = static_cast<int>(limits.shared_per_sm / per_block);
  }
  result.blocks_per_sm = std::min({by_warps, by_blocks, by_registers, by_shared});
  using enum Occupancy::Limit;
  if (result.blocks_per_sm == by_warps) result.limit = warps;
  if (result.blocks_per_sm == by_blocks) result.limit = blocks;
  if (result.blocks_per_sm == by_registers && by_registers < by_warps) result.limit = registers;
  if (result.blocks_per_sm == by_shared && by_shared < by_warps) result.limit = shared;
  result.active_warps = result.blocks_per_sm * warps_per_block;
  result.fraction = static_cast<double>(result.active_warps) / limits.max_warps_per_sm;
  return result;
}

}  // namespace kforecast::embedded
