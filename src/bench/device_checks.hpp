// SPDX-License-Identifier: Apache-2.0
#pragma once

// A pair's inputs drawn and its outputs compared on the GPU, by the runner's support kernels
// (runner_support_source: kforecast_fill, kforecast_compare), as host_buffers.hpp does them on the
// host: the same draws lane for lane (one key per buffer and seed), the same agreement rule. What
// crosses to the host is 32 bytes per output and, where lanes disagree, the first of them; a
// buffer of a gigabyte is never copied whole, so a decision's cost does not grow with its buffers.

#include <cstdint>

#include "base/error.hpp"
#include "bench/gpu.hpp"
#include "bench/host_buffers.hpp"
#include "bench/resolved_launch.hpp"

namespace kforecast::bench {

// The support kernels' code for a lane type: 0 f32, 1 f64, 2 f16, 3 bf16, 4 i8, 5 i16, 6 i32,
// 7 i64, 8 u8, 9 u16, 10 u32, 11 u64.
int lane_kind(const ElementType& type);

// Fills the `argument.count` elements at `out` with its initial values for `seed` (not a
// captured distribution: those bytes come from the host). Queued on the GPU's stream.
Result<void> fill_on_device(Gpu& gpu, cuda::CUfunction fill, cuda::CUdeviceptr out, const ResolvedArgument& argument,
                            std::uint64_t seed);

// Compares the candidate's output at `actual` with the reference's at `expected`, lane by lane;
// `scratch` is 32 bytes of device memory for the result.
Result<Comparison> compare_on_device(Gpu& gpu, cuda::CUfunction compare, cuda::CUdeviceptr scratch,
                                     cuda::CUdeviceptr expected, cuda::CUdeviceptr actual,
                                     const ResolvedArgument& argument);

}  // namespace kforecast::bench
