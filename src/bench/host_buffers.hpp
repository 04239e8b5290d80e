// SPDX-License-Identifier: Apache-2.0
#pragma once

// Buffer contents on the host: initial values drawn from an argument's distribution (seeded,
// so both kernels and every rerun see the same inputs), the poison written into outputs before
// a run, and the dtype-aware comparison of the reference's outputs with the candidate's. The
// definition of both: the GPU's support kernels do the same (device_checks.hpp) for a pair's
// buffers; these serve captured buffers, a mismatch's values and the tests' simulated device.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bench/resolved_launch.hpp"

namespace kforecast::bench {

// `count` elements of the argument's type, from its init distribution and `seed`.
std::vector<std::byte> initial_values(const ResolvedArgument& argument, std::uint64_t seed);

// The key of the argument's draws for `seed`: lane i's bits are a function of (key, i) alone, on
// the host and in the GPU's fill kernel (bench/device_checks.hpp) alike.
std::uint64_t lane_random_key(const ResolvedArgument& argument, std::uint64_t seed);

// initial_values of a drawn (not captured) distribution, from the key itself: what the GPU's fill
// kernel writes, for a simulated device to write the same.
std::vector<std::byte> drawn_values(const ResolvedArgument& argument, std::uint64_t key);

// All bytes 0xFF: NaN in every floating type, -1 (or the maximum) in integers, so an output
// element a kernel never writes stands out.
inline constexpr std::byte poison_byte{0xFF};

struct Comparison {
  std::string argument;
  std::int64_t elements = 0;  // compared lanes
  std::int64_t mismatches = 0;
  double max_abs_error = 0;
  double max_rel_error = 0;
  std::int64_t first_mismatch = -1;  // lane index
  double reference_value = 0;        // at the first mismatch
  double candidate_value = 0;
  double rtol = 0;
  double atol = 0;

  bool agrees() const { return mismatches == 0; }
  std::string describe() const;  // "C: 12 of 1048576 elements differ; first at 17: 1.5 vs 1.25 (rtol 1e-4, atol 1e-5)"
};

// Lane by lane: agree when |c - r| <= atol + rtol * |r|, or both are NaN, or both are the same
// infinity. Errors (max abs, max rel) are over lanes where both are finite.
Comparison compare_outputs(const ResolvedArgument& argument, std::span<const std::byte> reference,
                           std::span<const std::byte> candidate);

// One lane as a double, for messages and comparison.
double lane_value(const ElementType& type, std::span<const std::byte> bytes, std::int64_t lane);

}  // namespace kforecast::bench
