// SPDX-License-Identifier: Apache-2.0
#pragma once

// IEEE binary16 (__half) and bfloat16 (__nv_bfloat16) on the host, which has neither type:
// round to nearest even going down, exact going up. NaN stays NaN; out of range becomes infinity.

#include <cstdint>

namespace kforecast::bench {

std::uint16_t to_half_bits(float value);
std::uint16_t to_bfloat16_bits(float value);
float from_half_bits(std::uint16_t bits);
float from_bfloat16_bits(std::uint16_t bits);

}  // namespace kforecast::bench
