// SPDX-License-Identifier: Apache-2.0
#include "hardware/arch_limits.hpp"

#include <array>

namespace kforecast::hardware {
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

}  // namespace

std::optional<ArchLimits> arch_limits(int compute_capability) {
  for (const ArchLimits& limits : limits_table)
    if (limits.compute_capability == compute_capability) return limits;
  return std::nullopt;
}

}  // namespace kforecast::hardware
