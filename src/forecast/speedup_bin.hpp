// SPDX-License-Identifier: Apache-2.0
#pragma once

// The eight speedup bins (docs/getting-started.md lists them): the scale on which forecasts are made
// and measurements judged. Speedup S = t_reference / t_candidate; S > 1 means the candidate is
// faster.
//
// The bins follow the design's table, whose upper edges are inclusive:
//   1 S <= 0.25 | 2 0.25 < S <= 0.5 | 3 0.5 < S <= 0.71 | 4 0.71 < S <= 1.0
//   5 1.0 < S <= 1.41 | 6 1.41 < S <= 2.0 | 7 2.0 < S <= 4.0 | 8 S > 4.0
// (0.71 and 1.41 stand for 2^-0.5 and 2^0.5.) Bins 3-6 are half octaves, bins 2 and 7 whole
// octaves. The design's shorthand clamp(floor(2 log2 S) + 4, 1, 8) differs from its table twice:
// it makes bins 2 and 7 half octaves (0.3 would be bin 1, 3.0 bin 8) and its lower edges
// inclusive (1.0 would be bin 5). The table is the contract here.

#include <array>
#include <cstddef>
#include <string_view>

#include "base/error.hpp"

namespace kforecast::forecast {

// The underlying values are the design's bin numbers, the ones the JSON report prints.
enum class SpeedupBin : int {
  severe_slowdown = 1,
  significant_slowdown = 2,
  moderate_slowdown = 3,
  minor_slowdown = 4,
  minor_speedup = 5,
  significant_speedup = 6,
  high_speedup = 7,
  extreme_speedup = 8,
};

inline constexpr std::size_t bin_count = 8;

inline constexpr std::array<SpeedupBin, bin_count> all_speedup_bins{
    SpeedupBin::severe_slowdown, SpeedupBin::significant_slowdown, SpeedupBin::moderate_slowdown,
    SpeedupBin::minor_slowdown,  SpeedupBin::minor_speedup,        SpeedupBin::significant_speedup,
    SpeedupBin::high_speedup,    SpeedupBin::extreme_speedup,
};

// The design's number, 1..8.
constexpr int bin_number(SpeedupBin bin) { return static_cast<int>(bin); }

// Position in per-bin arrays, 0..7.
constexpr std::size_t bin_offset(SpeedupBin bin) { return static_cast<std::size_t>(bin_number(bin) - 1); }

// For numbers read from outside (a model's answer, a JSON report): 1..8, anything else is an error.
Result<SpeedupBin> bin_from_number(int number);

// The bin of a measured speedup. A speedup within a relative 1e-9 of an edge counts as on it,
// so 2^0.5 computed any way (sqrt, pow, 1/sqrt(0.5)) lands in bin 5, and 1.0 in bin 4.
// Zero, negative and non-finite speedups are errors: no timing ratio produces them.
Result<SpeedupBin> bin_from_speedup(double speedup);

// The table's name: "severe slowdown" ... "extreme speedup".
std::string_view bin_label(SpeedupBin bin);

// The table's range, printable: "S <= 0.25", "1.0 < S <= 1.41", "S > 4.0".
std::string_view bin_range_text(SpeedupBin bin);

// Exclusive lower edge as a speedup; 0 for bin 1.
double bin_lower_edge(SpeedupBin bin);

// Inclusive upper edge as a speedup; +infinity for bin 8.
double bin_upper_edge(SpeedupBin bin);

// A bin's extent in log2 S. Bins 1 and 8 are open-ended; they get a representative half
// octave beyond their edge ([-2.5, -2] and [2, 2.5]) so that they have a midpoint and a width.
struct Log2Span {
  double low = 0.0;
  double high = 0.0;
};
Log2Span bin_log2_span(SpeedupBin bin);

// Midpoint of bin_log2_span: -2.25, -1.5, -0.75, -0.25, +0.25, +0.75, +1.5, +2.25.
double midpoint_log2(SpeedupBin bin);

// 2^midpoint_log2: the speedup that stands for the whole bin (bin 5: 2^0.25 = 1.189).
double representative_speedup(SpeedupBin bin);

}  // namespace kforecast::forecast
