// SPDX-License-Identifier: Apache-2.0
#include "embedded/occupancy.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "hardware/gpu_specs.hpp"

namespace kforecast::embedded {
namespace {

// Every GPU of the one table (hardware/gpu_specs.hpp), in its order.
std::vector<Gpu> offered_gpus() {
  std::vector<Gpu> out;
  for (const hardware::GpuSpec& spec : hardware::gpu_specs())
    out.push_back({spec.name, spec.compute_capability, spec.multiprocessors, spec.boost_clock_mhz,
                   spec.memory_bandwidth_gbs});
  return out;
}

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

std::span<const Gpu> all_gpus() {
  static const std::vector<Gpu> gpus = offered_gpus();  // on first use: no static-order hazard
  return gpus;
}

std::optional<Gpu> find_gpu(std::string_view name) {
  if (iequal_prefix_word(name, "NVIDIA")) name.remove_prefix(std::min<std::size_t>(7, name.size()));
  // Longest names first, so "L40S" is not read as "L4" and "A100" not as "A10".
  std::vector<Gpu> by_length = offered_gpus();
  std::ranges::sort(by_length, [](const Gpu& a, const Gpu& b) { return a.name.size() > b.name.size(); });
  for (const Gpu& gpu : by_length)
    if (iequal_prefix_word(name, gpu.name)) return gpu;
  return std::nullopt;
}

Result<Gpu> named_gpu(std::string_view name, std::string_view where) {
  if (auto gpu = find_gpu(name)) return *gpu;
  return usage_error(fmt::format("{}: unknown GPU '{}'; known: {}", where, name, hardware::gpu_names()));
}

Occupancy theoretical_occupancy(const hardware::ArchLimits& limits, const BlockResources& block) {
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
