// SPDX-License-Identifier: Apache-2.0
#include "bench/host_buffers.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <random>

#include <fmt/format.h>

#include "bench/half_precision.hpp"

namespace kforecast::bench {
namespace {

void store_lane(const ElementType& type, std::byte* out, double value) {
  switch (type.kind) {
    case ScalarKind::half: {
      const auto bits = to_half_bits(static_cast<float>(value));
      std::memcpy(out, &bits, 2);
      return;
    }
    case ScalarKind::bfloat16: {
      const auto bits = to_bfloat16_bits(static_cast<float>(value));
      std::memcpy(out, &bits, 2);
      return;
    }
    case ScalarKind::floating:
      if (type.lane_bytes == 8) {
        std::memcpy(out, &value, 8);
      } else {
        const auto single = static_cast<float>(value);
        std::memcpy(out, &single, 4);
      }
      return;
    case ScalarKind::signed_integer:
    case ScalarKind::unsigned_integer: {
      // Values come from the spec's integer ranges; two's complement keeps the low bytes right.
      const auto integer = static_cast<std::int64_t>(std::llround(value));
      std::memcpy(out, &integer, static_cast<std::size_t>(type.lane_bytes));
      return;
    }
  }
}

}  // namespace

double lane_value(const ElementType& type, std::span<const std::byte> bytes, std::int64_t lane) {
  const std::byte* at = bytes.data() + lane * type.lane_bytes;
  switch (type.kind) {
    case ScalarKind::half:
    case ScalarKind::bfloat16: {
      std::uint16_t bits = 0;
      std::memcpy(&bits, at, 2);
      return type.kind == ScalarKind::half ? from_half_bits(bits) : from_bfloat16_bits(bits);
    }
    case ScalarKind::floating: {
      if (type.lane_bytes == 8) {
        double value = 0;
        std::memcpy(&value, at, 8);
        return value;
      }
      float value = 0;
      std::memcpy(&value, at, 4);
      return value;
    }
    case ScalarKind::signed_integer: {
      std::int64_t value = 0;
      std::memcpy(&value, at, static_cast<std::size_t>(type.lane_bytes));
      const int shift = 64 - 8 * type.lane_bytes;  // sign-extend
      return static_cast<double>(shift == 0 ? value : (value << shift) >> shift);
    }
    case ScalarKind::unsigned_integer: {
      std::uint64_t value = 0;
      std::memcpy(&value, at, static_cast<std::size_t>(type.lane_bytes));
      return static_cast<double>(value);
    }
  }
  return 0;
}

std::vector<std::byte> initial_values(const ResolvedArgument& argument, std::uint64_t seed) {
  if (argument.init.distribution == Distribution::captured) {
    // A recorded launch's bytes, the same for every seed; a shorter record leaves poison after it.
    std::vector<std::byte> bytes(static_cast<std::size_t>(argument.bytes()), poison_byte);
    if (argument.init.captured)
      std::copy_n(argument.init.captured->begin(), std::min(argument.init.captured->size(), bytes.size()), bytes.begin());
    return bytes;
  }
  const ElementType& type = argument.type;
  const std::int64_t lanes = argument.count * type.lanes;
  std::vector<std::byte> bytes(static_cast<std::size_t>(argument.bytes()));
  std::mt19937_64 generator(seed * 0x9E3779B97F4A7C15ull + std::hash<std::string>{}(argument.name));
  const auto unit = [&] { return static_cast<double>(generator() >> 11) * 0x1.0p-53; };  // [0, 1)
  const InitSpec& init = argument.init;
  for (std::int64_t lane = 0; lane < lanes; ++lane) {
    double value = 0;
    switch (init.distribution) {
      case Distribution::uniform:
        value = init.a + (init.b - init.a) * unit();
        break;
      case Distribution::normal: {
        const double u1 = 1.0 - unit();  // (0, 1]: log is finite
        value = init.a + init.b * std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * unit());
        break;
      }
      case Distribution::constant:
        value = init.a;
        break;
      case Distribution::iota:
        value = init.a + init.b * static_cast<double>(lane);
        break;
      case Distribution::random_integers: {
        const auto span = static_cast<std::uint64_t>(init.b - init.a) + 1;
        value = init.a + static_cast<double>(generator() % span);
        break;
      }
      case Distribution::captured:  // returned above
        break;
    }
    store_lane(type, bytes.data() + lane * type.lane_bytes, value);
  }
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
  const std::int64_t lanes = static_cast<std::int64_t>(std::min(reference.size(), candidate.size())) / type.lane_bytes;
  result.elements = lanes;
  for (std::int64_t lane = 0; lane < lanes; ++lane) {
    const double r = lane_value(type, reference, lane);
    const double c = lane_value(type, candidate, lane);
    bool agree = false;
    if (std::isnan(r) || std::isnan(c)) {
      agree = std::isnan(r) && std::isnan(c);
    } else if (std::isinf(r) || std::isinf(c)) {
      agree = r == c;
    } else {
      const double abs_error = std::fabs(c - r);
      const double rel_error = r != 0 ? abs_error / std::fabs(r) : (abs_error == 0 ? 0 : INFINITY);
      result.max_abs_error = std::max(result.max_abs_error, abs_error);
      if (std::isfinite(rel_error)) result.max_rel_error = std::max(result.max_rel_error, rel_error);
      agree = abs_error <= argument.atol + argument.rtol * std::fabs(r);
    }
    if (!agree) {
      if (result.mismatches++ == 0) {
        result.first_mismatch = lane;
        result.reference_value = r;
        result.candidate_value = c;
      }
    }
  }
  return result;
}

}  // namespace kforecast::bench
