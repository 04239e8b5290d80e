// SPDX-License-Identifier: Apache-2.0
#include "bench/host_buffers.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <numbers>
#include <span>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "bench/half_precision.hpp"

namespace kforecast::bench {
namespace {

// One lane type's bytes, read and written as a double. The type is chosen once per buffer
// (with_lane_type), so the loops over a buffer's lanes are straight code. The GPU draws and
// compares a pair's buffers itself (device_checks.hpp); these serve captured buffers, a
// mismatch's values and the simulated device of the tests.
template <typename T>
struct NativeLane {
  static constexpr std::size_t bytes = sizeof(T);
  static double get(const std::byte* at) {
    T value;
    std::memcpy(&value, at, sizeof(T));
    return static_cast<double>(value);
  }
  static void put(std::byte* at, double value) {
    if constexpr (std::is_floating_point_v<T>) {
      const auto converted = static_cast<T>(value);
      std::memcpy(at, &converted, sizeof(T));
    } else {
      // Values come from the spec's integer ranges; two's complement keeps the low bytes right.
      const auto converted = static_cast<T>(std::llround(value));
      std::memcpy(at, &converted, sizeof(T));
    }
  }
};

template <std::uint16_t (*to_bits)(float), float (*from_bits)(std::uint16_t)>
struct HalfWidthLane {
  static constexpr std::size_t bytes = 2;
  static double get(const std::byte* at) {
    std::uint16_t bits = 0;
    std::memcpy(&bits, at, 2);
    return from_bits(bits);
  }
  static void put(std::byte* at, double value) {
    const auto bits = to_bits(static_cast<float>(value));
    std::memcpy(at, &bits, 2);
  }
};

using HalfLane = HalfWidthLane<to_half_bits, from_half_bits>;
using Bfloat16Lane = HalfWidthLane<to_bfloat16_bits, from_bfloat16_bits>;

// Calls `body` with the Lane type of `type` as a template argument: body.template operator()<Lane>().
template <typename Body>
decltype(auto) with_lane_type(const ElementType& type, Body&& body) {
  switch (type.kind) {
    case ScalarKind::half:
      return body.template operator()<HalfLane>();
    case ScalarKind::bfloat16:
      return body.template operator()<Bfloat16Lane>();
    case ScalarKind::floating:
      if (type.lane_bytes == 8) return body.template operator()<NativeLane<double>>();
      return body.template operator()<NativeLane<float>>();
    case ScalarKind::signed_integer:
      switch (type.lane_bytes) {
        case 1: return body.template operator()<NativeLane<std::int8_t>>();
        case 2: return body.template operator()<NativeLane<std::int16_t>>();
        case 4: return body.template operator()<NativeLane<std::int32_t>>();
        default: return body.template operator()<NativeLane<std::int64_t>>();
      }
    case ScalarKind::unsigned_integer:
      switch (type.lane_bytes) {
        case 1: return body.template operator()<NativeLane<std::uint8_t>>();
        case 2: return body.template operator()<NativeLane<std::uint16_t>>();
        case 4: return body.template operator()<NativeLane<std::uint32_t>>();
        default: return body.template operator()<NativeLane<std::uint64_t>>();
      }
  }
  return body.template operator()<NativeLane<float>>();
}

// Counter-based draws: lane i's bits depend only on (key, i), through SplitMix64's finalizer, so
// no state runs from lane to lane and a draw costs a few multiplies (a Mersenne Twister stepped
// per lane made 1M floats cost 8 ms of GPU time per seed and side).
struct LaneRandom {
  std::uint64_t key;

  std::uint64_t bits(std::uint64_t counter) const {
    std::uint64_t z = key + (counter + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double unit(std::uint64_t counter) const {  // [0, 1)
    return static_cast<double>(bits(counter) >> 11) * 0x1.0p-53;
  }
};

// Below this many lanes a buffer is drawn or compared on the calling thread: starting threads
// would cost more than they save.
constexpr std::int64_t lanes_per_thread = 1 << 20;

// Runs work(begin, end, chunk) over contiguous chunks of [0, count): on up to 8 threads when
// there are at least 2 x per_thread units (a 4096 x 4096 half matrix takes about 80 ms on one
// thread), inline otherwise. Returns the number of chunks. Not a template: one copy of the thread
// code serves every lane type and distribution.
std::size_t for_chunks(std::int64_t count, std::int64_t per_thread,
                       const std::function<void(std::int64_t, std::int64_t, std::size_t)>& work) {
  const auto threads = std::clamp<std::int64_t>(
      std::min<std::int64_t>(count / per_thread, std::thread::hardware_concurrency()), 1, 8);
  if (threads == 1) {
    work(0, count, 0);
    return 1;
  }
  const std::int64_t step = (count + threads - 1) / threads;
  const auto chunk = [&work, step, count](std::int64_t t) {
    work(t * step, std::min(count, (t + 1) * step), static_cast<std::size_t>(t));
  };
  std::vector<std::jthread> workers;
  for (std::int64_t t = 0; t < threads; ++t) {
    try {
      workers.emplace_back(chunk, t);
    } catch (const std::system_error&) {  // no thread to be had (a process limit): this one does it
      chunk(t);
    }
  }
  return static_cast<std::size_t>(threads);
}

// Values are drawn as doubles a block at a time (a distribution knows nothing of lane types),
// then stored by one loop per lane type: 5 + 12 loops in the binary instead of 5 x 12.
constexpr std::int64_t block_lanes = 4096;  // even, so Box-Muller pairs never straddle blocks

void draw_block(const InitSpec& init, const LaneRandom random, std::int64_t first, std::span<double> values) {
  const double a = init.a, b = init.b;
  const auto counter = [first](std::size_t k) { return static_cast<std::uint64_t>(first) + k; };
  switch (init.distribution) {
    case Distribution::uniform:
      for (std::size_t k = 0; k < values.size(); ++k) values[k] = a + (b - a) * random.unit(counter(k));
      return;
    case Distribution::normal:
      // Box-Muller, both values of each pair used: lanes 2k and 2k+1 come from draws 2k and 2k+1.
      for (std::size_t k = 0; k < values.size(); k += 2) {
        const double radius = b * std::sqrt(-2 * std::log(1.0 - random.unit(counter(k))));  // 1 - [0, 1): log finite
        const double angle = 2 * std::numbers::pi * random.unit(counter(k) + 1);
        values[k] = a + radius * std::cos(angle);
        if (k + 1 < values.size()) values[k + 1] = a + radius * std::sin(angle);
      }
      return;
    case Distribution::constant:
      std::fill(values.begin(), values.end(), a);
      return;
    case Distribution::iota:
      for (std::size_t k = 0; k < values.size(); ++k) values[k] = a + b * static_cast<double>(counter(k));
      return;
    case Distribution::random_integers: {
      const auto span = static_cast<std::uint64_t>(b - a) + 1;
      for (std::size_t k = 0; k < values.size(); ++k) {
        // The high word of bits x span: uniform over [0, span) without a division per lane.
        const auto scaled = static_cast<unsigned __int128>(random.bits(counter(k))) * span;
        values[k] = a + static_cast<double>(static_cast<std::uint64_t>(scaled >> 64));
      }
      return;
    }
    case Distribution::captured:  // initial_values copies the bytes
      return;
  }
}

template <typename Lane>
void store_block(std::span<const double> values, std::byte* out) {
  for (std::size_t k = 0; k < values.size(); ++k) Lane::put(out + k * Lane::bytes, values[k]);
}

// Lane by lane, the finite case first: |c - r| is finite only when both are, and that branch is
// the one taken for nearly every lane of a real output.
template <typename Lane>
void compare_lanes(const ResolvedArgument& argument, const std::byte* reference, const std::byte* candidate,
                   std::int64_t begin, std::int64_t end, Comparison& result) {
  double max_abs_error = 0, max_rel_error = 0;
  for (std::int64_t lane = begin; lane < end; ++lane) {
    const auto at = static_cast<std::size_t>(lane) * Lane::bytes;
    const double r = Lane::get(reference + at);
    const double c = Lane::get(candidate + at);
    const double abs_error = std::fabs(c - r);
    bool agree = false;
    if (std::isfinite(abs_error)) [[likely]] {
      max_abs_error = std::max(max_abs_error, abs_error);
      // Over lanes where the relative error is finite (a subnormal r can make it overflow).
      if (const double rel_error = abs_error / std::fabs(r); r != 0 && std::isfinite(rel_error))
        max_rel_error = std::max(max_rel_error, rel_error);
      agree = abs_error <= argument.atol + argument.rtol * std::fabs(r);
    } else if (std::isnan(r) || std::isnan(c)) {
      agree = std::isnan(r) && std::isnan(c);
    } else if (std::isinf(r) || std::isinf(c)) {
      agree = r == c;
    } else {  // both finite, the difference past the largest double
      max_abs_error = abs_error;
    }
    if (!agree && result.mismatches++ == 0) {
      result.first_mismatch = lane;
      result.reference_value = r;
      result.candidate_value = c;
    }
  }
  result.max_abs_error = max_abs_error;
  result.max_rel_error = max_rel_error;
}

}  // namespace

double lane_value(const ElementType& type, std::span<const std::byte> bytes, std::int64_t lane) {
  const std::byte* at = bytes.data() + lane * type.lane_bytes;
  return with_lane_type(type, [&]<typename Lane>() { return Lane::get(at); });
}

std::uint64_t lane_random_key(const ResolvedArgument& argument, std::uint64_t seed) {
  return seed * 0x9E3779B97F4A7C15ull + std::hash<std::string>{}(argument.name);
}

std::vector<std::byte> initial_values(const ResolvedArgument& argument, std::uint64_t seed) {
  if (argument.init.distribution == Distribution::captured) {
    // A recorded launch's bytes, the same for every seed; a shorter record leaves poison after it.
    std::vector<std::byte> bytes(static_cast<std::size_t>(argument.bytes()), poison_byte);
    if (argument.init.captured)
      std::copy_n(argument.init.captured->begin(), std::min(argument.init.captured->size(), bytes.size()), bytes.begin());
    return bytes;
  }
  return drawn_values(argument, lane_random_key(argument, seed));
}

std::vector<std::byte> drawn_values(const ResolvedArgument& argument, std::uint64_t key) {
  std::vector<std::byte> bytes(static_cast<std::size_t>(argument.bytes()));
  const LaneRandom random{key};
  const std::int64_t lanes = argument.count * argument.type.lanes;
  const auto lane_bytes = static_cast<std::size_t>(argument.type.lane_bytes);
  for_chunks((lanes + block_lanes - 1) / block_lanes, lanes_per_thread / block_lanes,
             [&](std::int64_t first_block, std::int64_t end_block, std::size_t) {
               std::vector<double> values(block_lanes);
               for (std::int64_t block = first_block; block < end_block; ++block) {
                 const std::int64_t first = block * block_lanes;
                 const auto block_values = std::span(values).first(static_cast<std::size_t>(std::min(block_lanes, lanes - first)));
                 draw_block(argument.init, random, first, block_values);
                 std::byte* out = bytes.data() + static_cast<std::size_t>(first) * lane_bytes;
                 with_lane_type(argument.type, [&]<typename Lane>() { store_block<Lane>(block_values, out); });
               }
             });
  return bytes;
}

std::string Comparison::describe() const {
  if (agrees())
    return fmt::format("{}: {} elements agree (max abs error {:.3g}, max rel error {:.3g})", argument, elements,
                       max_abs_error, max_rel_error);
  return fmt::format(
      "{}: {} of {} elements differ; first at {}: reference {:.7g}, candidate {:.7g} (rtol {:g}, atol {:g}; "
      "max abs error {:.3g}, max rel error {:.3g})",
      argument, mismatches, elements, first_mismatch, reference_value, candidate_value, rtol, atol, max_abs_error,
      max_rel_error);
}

Comparison compare_outputs(const ResolvedArgument& argument, std::span<const std::byte> reference,
                           std::span<const std::byte> candidate) {
  Comparison result;
  result.argument = argument.name;
  result.rtol = argument.rtol;
  result.atol = argument.atol;
  const ElementType& type = argument.type;
  result.elements = static_cast<std::int64_t>(std::min(reference.size(), candidate.size())) / type.lane_bytes;
  if (result.elements == 0) return result;
  // Bit-identical outputs agree in every lane with no error (NaN beside the same NaN, an infinity
  // beside itself): the common case, a kernel changed for speed, checked at memory speed.
  const auto compared_bytes = static_cast<std::size_t>(result.elements) * static_cast<std::size_t>(type.lane_bytes);
  if (std::memcmp(reference.data(), candidate.data(), compared_bytes) == 0) return result;
  // Chunks compared apart, then merged in lane order: the first mismatch is the first chunk's.
  std::vector<Comparison> chunks(8);
  const std::size_t used = for_chunks(result.elements, lanes_per_thread, [&](std::int64_t begin, std::int64_t end, std::size_t chunk) {
    with_lane_type(type, [&]<typename Lane>() {
      compare_lanes<Lane>(argument, reference.data(), candidate.data(), begin, end, chunks[chunk]);
    });
  });
  for (std::size_t chunk = 0; chunk < used; ++chunk) {
    const Comparison& part = chunks[chunk];
    if (part.mismatches > 0 && result.mismatches == 0) {
      result.first_mismatch = part.first_mismatch;
      result.reference_value = part.reference_value;
      result.candidate_value = part.candidate_value;
    }
    result.mismatches += part.mismatches;
    result.max_abs_error = std::max(result.max_abs_error, part.max_abs_error);
    result.max_rel_error = std::max(result.max_rel_error, part.max_rel_error);
  }
  return result;
}

}  // namespace kforecast::bench
