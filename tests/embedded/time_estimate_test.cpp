// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "embedded/time_estimate.hpp"
#include "hardware/arch_limits.hpp"

using namespace kforecast::embedded;
using kforecast::hardware::ArchLimits;
using kforecast::hardware::arch_limits;

namespace {

const Gpu h100 = *find_gpu("H100");
const ArchLimits sm90 = *arch_limits(90);

// One thread per element of out = f(x): a 4-byte load, a 4-byte store, some FP32 arithmetic.
PtxMix elementwise(double fp32, double fp64 = 0, double special = 0) {
  PtxMix mix;
  mix.found = true;
  mix.global_loads = 1;
  mix.global_stores = 1;
  mix.global_load_bytes = 4;
  mix.global_store_bytes = 4;
  mix.fp32 = fp32;
  mix.fp64 = fp64;
  mix.special = special;
  mix.instructions = 2 + fp32 + fp64 + special;
  return mix;
}

}  // namespace

TEST_CASE("embedded: the roofline estimate of a memory-bound launch is its bytes over the bandwidth") {
  const double threads = 16 * 1024 * 1024;
  const auto estimate = estimate_time(elementwise(4), threads, h100, sm90);
  REQUIRE(estimate.has_value());
  // 16 Mi threads x 8 bytes = 128 MiB at 3350 GB/s: about 40 us.
  CHECK(estimate->dram_us == Approx(threads * 8 / 3.35e6));
  CHECK(estimate->dram_us == Approx(40.06).epsilon(0.01));
  // 16 Mi x (4 / 128 + 2 / 32) cycles per SM over 132 SMs at 1980 MHz: about 6 us.
  CHECK(estimate->compute_us == Approx(threads * (4.0 / 128 + 2.0 / 32) / (132 * 1980.0)));
  CHECK(estimate->time_us() == estimate->dram_us);
}

TEST_CASE("embedded: FP64 and special functions cost by their rates, and the GPU decides") {
  const double threads = 1 << 24;
  const auto fp32 = estimate_time(elementwise(64), threads, h100, sm90);
  const auto fp64 = estimate_time(elementwise(0, 64), threads, h100, sm90);
  const auto sfu = estimate_time(elementwise(0, 0, 64), threads, h100, sm90);
  REQUIRE((fp32 && fp64 && sfu));
  CHECK(fp64->compute_us > 1.8 * fp32->compute_us);  // 64 against 128 per SM per clock on sm_90 (plus the loads)
  CHECK(sfu->compute_us > 7 * fp32->compute_us);     // 16 against 128
  // On an L4 (sm_89) FP64 runs at 2 per SM per clock: the same kernel becomes compute-bound.
  const auto l4 = estimate_time(elementwise(0, 64), threads, *find_gpu("L4"), *arch_limits(89));
  REQUIRE(l4.has_value());
  CHECK(l4->compute_us > l4->dram_us);
  CHECK(l4->compute_us > 20 * fp64->compute_us);
}

TEST_CASE("embedded: no roofline estimate where a loop's trip count is unknown, or nothing is known") {
  PtxMix looped = elementwise(4);
  looped.backward_branches = 1;
  CHECK_FALSE(estimate_time(looped, 1e6, h100, sm90).has_value());
  CHECK_FALSE(estimate_time(PtxMix{}, 1e6, h100, sm90).has_value());
  CHECK_FALSE(estimate_time(elementwise(4), 0, h100, sm90).has_value());
  CHECK_FALSE(estimate_time(elementwise(4), 1e6, Gpu{"X", 90, 132}, sm90).has_value());  // no clock or bandwidth
}
