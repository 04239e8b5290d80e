// SPDX-License-Identifier: Apache-2.0
#include "forecast/speedup_bin.hpp"

#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace kforecast::forecast {
namespace {

struct BinRow {
  std::string_view label;
  std::string_view range_text;
  Log2Span span;  // bins 1 and 8: the representative half octave
};

// One row per bin, in bin order; the edges are the table's (2^-2, 2^-1, 2^-0.5, 1, 2^0.5, 2, 4).
constexpr std::array<BinRow, bin_count> bin_rows{{
    {"severe slowdown", "S <= 0.25", {-2.5, -2.0}},
    {"significant slowdown", "0.25 < S <= 0.5", {-2.0, -1.0}},
    {"moderate slowdown", "0.5 < S <= 0.71", {-1.0, -0.5}},
    {"minor slowdown", "0.71 < S <= 1.0", {-0.5, 0.0}},
    {"minor speedup", "1.0 < S <= 1.41", {0.0, 0.5}},
    {"significant speedup", "1.41 < S <= 2.0", {0.5, 1.0}},
    {"high speedup", "2.0 < S <= 4.0", {1.0, 2.0}},
    {"extreme speedup", "S > 4.0", {2.0, 2.5}},
}};

// Measured speedups carry far more noise than this; it only absorbs rounding in how an exact
// power of sqrt(2) was computed.
constexpr double edge_relative_slack = 1e-9;

const BinRow& row(SpeedupBin bin) { return bin_rows[bin_offset(bin)]; }

}  // namespace

Result<SpeedupBin> bin_from_number(int number) {
  if (number < 1 || number > static_cast<int>(bin_count)) {
    return fail(ExitCode::could_not_run,
                fmt::format("speedup bin {} does not exist; bins are numbered 1 to 8", number));
  }
  return static_cast<SpeedupBin>(number);
}

Result<SpeedupBin> bin_from_speedup(double speedup) {
  if (!std::isfinite(speedup) || speedup <= 0.0) {
    return fail(ExitCode::could_not_run,
                fmt::format("speedup {} is not a timing ratio; it must be finite and > 0", speedup));
  }
  for (const SpeedupBin bin : all_speedup_bins) {
    if (bin == SpeedupBin::extreme_speedup) break;
    if (speedup <= bin_upper_edge(bin) * (1.0 + edge_relative_slack)) return bin;
  }
  return SpeedupBin::extreme_speedup;
}

std::string_view bin_label(SpeedupBin bin) { return row(bin).label; }

std::string_view bin_range_text(SpeedupBin bin) { return row(bin).range_text; }

double bin_lower_edge(SpeedupBin bin) {
  if (bin == SpeedupBin::severe_slowdown) return 0.0;
  return std::exp2(row(bin).span.low);
}

double bin_upper_edge(SpeedupBin bin) {
  if (bin == SpeedupBin::extreme_speedup) return std::numeric_limits<double>::infinity();
  return std::exp2(row(bin).span.high);
}

Log2Span bin_log2_span(SpeedupBin bin) { return row(bin).span; }

double midpoint_log2(SpeedupBin bin) {
  const Log2Span span = row(bin).span;
  return (span.low + span.high) / 2.0;
}

double representative_speedup(SpeedupBin bin) { return std::exp2(midpoint_log2(bin)); }

}  // namespace kforecast::forecast
