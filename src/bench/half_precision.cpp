// SPDX-License-Identifier: Apache-2.0
#include "bench/half_precision.hpp"

#include <cstring>

namespace kforecast::bench {
namespace {

// Round to nearest, ties to even, as 0 or 1 with no branch: random inputs make a branch here
// mispredict half the time, which tripled the cost of filling a buffer with halves.
std::uint32_t round_up(std::uint32_t rest, std::uint32_t midpoint, std::uint32_t truncated) {
  return static_cast<std::uint32_t>(rest > midpoint) | (static_cast<std::uint32_t>(rest == midpoint) & truncated & 1u);
}

}  // namespace

std::uint16_t to_half_bits(float value) {
  // IEEE binary16, round to nearest even; out of range becomes infinity.
  std::uint32_t f = 0;
  std::memcpy(&f, &value, 4);
  const std::uint32_t sign = (f >> 16) & 0x8000u;
  const int exponent = static_cast<int>((f >> 23) & 0xffu) - 127 + 15;
  std::uint32_t mantissa = f & 0x7fffffu;
  if (((f >> 23) & 0xffu) == 0xffu) return static_cast<std::uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u : 0));
  if (exponent >= 31) return static_cast<std::uint16_t>(sign | 0x7c00u);
  if (exponent <= 0) {
    if (exponent < -10) return static_cast<std::uint16_t>(sign);
    mantissa |= 0x800000u;
    const int shift = 14 - exponent;
    std::uint32_t half = mantissa >> shift;
    const std::uint32_t rest = mantissa & ((1u << shift) - 1);
    const std::uint32_t midpoint = 1u << (shift - 1);
    half += round_up(rest, midpoint, half);
    return static_cast<std::uint16_t>(sign | half);
  }
  std::uint32_t half = (static_cast<std::uint32_t>(exponent) << 10) | (mantissa >> 13);
  const std::uint32_t rest = mantissa & 0x1fffu;
  half += round_up(rest, 0x1000u, half);
  return static_cast<std::uint16_t>(sign | half);
}

std::uint16_t to_bfloat16_bits(float value) {
  std::uint32_t f = 0;
  std::memcpy(&f, &value, 4);
  if ((f & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((f >> 16) | 0x40u);  // NaN stays NaN
  f += 0x7fffu + ((f >> 16) & 1u);
  return static_cast<std::uint16_t>(f >> 16);
}

float from_half_bits(std::uint16_t bits) {
  const std::uint32_t sign = (bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  std::uint32_t mantissa = bits & 0x3ffu;
  std::uint32_t f = 0;
  if (exponent == 0x1fu) {
    f = sign | 0x7f800000u | (mantissa << 13);
  } else if (exponent != 0) {
    f = sign | ((exponent - 15 + 127) << 23) | (mantissa << 13);
  } else if (mantissa != 0) {  // subnormal: normalise
    int shift = 0;
    while ((mantissa & 0x400u) == 0) mantissa <<= 1, ++shift;
    f = sign | (static_cast<std::uint32_t>(127 - 15 - shift + 1) << 23) | ((mantissa & 0x3ffu) << 13);
  } else {
    f = sign;
  }
  float value = 0;
  std::memcpy(&value, &f, 4);
  return value;
}

float from_bfloat16_bits(std::uint16_t bits) {
  const std::uint32_t f = static_cast<std::uint32_t>(bits) << 16;
  float value = 0;
  std::memcpy(&value, &f, 4);
  return value;
}

}  // namespace kforecast::bench
