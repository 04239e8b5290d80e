// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "embedded/occupancy.hpp"
#include "hardware/arch_limits.hpp"

using namespace kforecast::embedded;
using kforecast::hardware::ArchLimits;
using kforecast::hardware::arch_limits;

TEST_CASE("embedded: GPUs by name") {
  REQUIRE(find_gpu("H100").has_value());
  CHECK(find_gpu("H100")->sm_count == 132);
  CHECK(find_gpu("NVIDIA H100 80GB HBM3")->compute_capability == 90);
  CHECK(find_gpu("a100")->name == "A100");
  CHECK(find_gpu("L40S")->name == "L40S");
  CHECK(find_gpu("L4")->name == "L4");
  CHECK_FALSE(find_gpu("H1000").has_value());
  CHECK_FALSE(find_gpu("").has_value());
  for (const Gpu& gpu : all_gpus()) CHECK(arch_limits(gpu.compute_capability).has_value());
}

TEST_CASE("embedded: theoretical occupancy on sm_90, limit by limit") {
  const ArchLimits h100 = *arch_limits(90);
  // 256 threads, 32 registers: 8 blocks of 8 warps fill 64 warps.
  auto o = theoretical_occupancy(h100, {.threads = 256, .registers_per_thread = 32, .shared_bytes = 0});
  CHECK(o.blocks_per_sm == 8);
  CHECK(o.fraction == Approx(1.0));
  // 128 registers per thread: 65536 / (128 * 32) = 16 warps.
  o = theoretical_occupancy(h100, {.threads = 256, .registers_per_thread = 128, .shared_bytes = 0});
  CHECK(o.blocks_per_sm == 2);
  CHECK(o.fraction == Approx(0.25));
  CHECK(o.limit == Occupancy::Limit::registers);
  // 168 registers round to 5376 per warp: 12 warps, 3 blocks of 4 warps.
  o = theoretical_occupancy(h100, {.threads = 128, .registers_per_thread = 168, .shared_bytes = 0});
  CHECK(o.blocks_per_sm == 3);
  // 32 KiB of shared memory + 1 KiB reserved: 228 / 33 = 6 blocks.
  o = theoretical_occupancy(h100, {.threads = 64, .registers_per_thread = 32, .shared_bytes = 32 * 1024});
  CHECK(o.blocks_per_sm == 6);
  CHECK(o.limit == Occupancy::Limit::shared);
  // 32-thread blocks: the 32-block limit gives half occupancy.
  o = theoretical_occupancy(h100, {.threads = 32, .registers_per_thread = 16, .shared_bytes = 0});
  CHECK(o.blocks_per_sm == 32);
  CHECK(o.fraction == Approx(0.5));
  CHECK(o.limit == Occupancy::Limit::blocks);
}

TEST_CASE("embedded: a block that cannot run has zero occupancy") {
  const ArchLimits h100 = *arch_limits(90);
  CHECK(theoretical_occupancy(h100, {.threads = 2048, .registers_per_thread = 32}).blocks_per_sm == 0);
  CHECK(theoretical_occupancy(h100, {.threads = 0}).blocks_per_sm == 0);
  CHECK(theoretical_occupancy(h100, {.threads = 256, .registers_per_thread = 300}).blocks_per_sm == 0);
  CHECK(theoretical_occupancy(h100, {.threads = 256, .shared_bytes = 300 * 1024}).blocks_per_sm == 0);
  CHECK_FALSE(arch_limits(42).has_value());
}
