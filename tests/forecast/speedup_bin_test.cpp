// SPDX-License-Identifier: Apache-2.0
#include "forecast/speedup_bin.hpp"

#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::forecast;

namespace {

SpeedupBin bin_of(double speedup) { return bin_from_speedup(speedup).value(); }

}  // namespace

TEST_CASE("forecast: bin of a speedup follows the design table, upper edges inclusive") {
  SECTION("bin 1: S <= 0.25") {
    CHECK(bin_of(0.01) == SpeedupBin::severe_slowdown);
    CHECK(bin_of(0.2499) == SpeedupBin::severe_slowdown);
    CHECK(bin_of(0.25) == SpeedupBin::severe_slowdown);
  }
  SECTION("bin 2: 0.25 < S <= 0.5, a whole octave") {
    CHECK(bin_of(0.2501) == SpeedupBin::significant_slowdown);
    CHECK(bin_of(0.3) == SpeedupBin::significant_slowdown);  // the design's floor formula would say bin 1
    CHECK(bin_of(0.4999) == SpeedupBin::significant_slowdown);
    CHECK(bin_of(0.5) == SpeedupBin::significant_slowdown);
  }
  SECTION("bin 3: 0.5 < S <= 2^-0.5 = 0.70711") {
    CHECK(bin_of(0.5001) == SpeedupBin::moderate_slowdown);
    CHECK(bin_of(0.7071) == SpeedupBin::moderate_slowdown);  // 0.7071 < 0.707107
    CHECK(bin_of(std::sqrt(0.5)) == SpeedupBin::moderate_slowdown);
    CHECK(bin_of(1.0 / std::sqrt(2.0)) == SpeedupBin::moderate_slowdown);
    CHECK(bin_of(std::pow(2.0, -0.5)) == SpeedupBin::moderate_slowdown);
  }
  SECTION("bin 4: 0.70711 < S <= 1.0") {
    CHECK(bin_of(0.7072) == SpeedupBin::minor_slowdown);
    CHECK(bin_of(0.9999) == SpeedupBin::minor_slowdown);
    CHECK(bin_of(1.0) == SpeedupBin::minor_slowdown);
    // Equal timings summed in different orders: 0.30000000000000004 / 0.3 = 1.0000000000000002
    CHECK(bin_of((0.1 + 0.2) / 0.3) == SpeedupBin::minor_slowdown);
  }
  SECTION("bin 5: 1.0 < S <= 2^0.5 = 1.41421") {
    CHECK(bin_of(1.0001) == SpeedupBin::minor_speedup);
    CHECK(bin_of(1.0 + 1e-6) == SpeedupBin::minor_speedup);  // well outside the 1e-9 slack
    CHECK(bin_of(1.4142) == SpeedupBin::minor_speedup);      // 1.4142 < 1.414214
    CHECK(bin_of(std::sqrt(2.0)) == SpeedupBin::minor_speedup);
    CHECK(bin_of(std::pow(2.0, 0.5)) == SpeedupBin::minor_speedup);
    CHECK(bin_of(2.0 / std::sqrt(2.0)) == SpeedupBin::minor_speedup);
  }
  SECTION("bin 6: 1.41421 < S <= 2.0") {
    CHECK(bin_of(1.4143) == SpeedupBin::significant_speedup);
    CHECK(bin_of(1.9999) == SpeedupBin::significant_speedup);
    CHECK(bin_of(2.0) == SpeedupBin::significant_speedup);
  }
  SECTION("bin 7: 2.0 < S <= 4.0, a whole octave") {
    CHECK(bin_of(2.0001) == SpeedupBin::high_speedup);
    CHECK(bin_of(3.0) == SpeedupBin::high_speedup);  // the design's floor formula would say bin 8
    CHECK(bin_of(3.9999) == SpeedupBin::high_speedup);
    CHECK(bin_of(4.0) == SpeedupBin::high_speedup);
  }
  SECTION("bin 8: S > 4.0") {
    CHECK(bin_of(4.0001) == SpeedupBin::extreme_speedup);
    CHECK(bin_of(1000.0) == SpeedupBin::extreme_speedup);
  }
}

TEST_CASE("forecast: a speedup that is not a timing ratio is an error") {
  const double infinity = std::numeric_limits<double>::infinity();
  for (const double bad : {0.0, -0.0, -1.5, std::nan(""), infinity, -infinity}) {
    const auto bin = bin_from_speedup(bad);
    REQUIRE_FALSE(bin.has_value());
    CHECK_THAT(bin.error().message, Catch::Contains("must be finite and > 0"));
  }
  CHECK_THAT(bin_from_speedup(-1.5).error().message, Catch::StartsWith("speedup -1.5 "));
}

TEST_CASE("forecast: bin numbers") {
  CHECK(bin_number(SpeedupBin::severe_slowdown) == 1);
  CHECK(bin_number(SpeedupBin::extreme_speedup) == 8);
  CHECK(bin_offset(SpeedupBin::minor_speedup) == 4);
  CHECK(bin_from_number(5).value() == SpeedupBin::minor_speedup);
  CHECK(bin_from_number(1).value() == SpeedupBin::severe_slowdown);
  CHECK(bin_from_number(8).value() == SpeedupBin::extreme_speedup);
  CHECK_FALSE(bin_from_number(0).has_value());
  CHECK_THAT(bin_from_number(9).error().message, Catch::Contains("speedup bin 9 does not exist"));
}

TEST_CASE("forecast: bin labels and ranges match the design table") {
  CHECK(bin_label(SpeedupBin::severe_slowdown) == "severe slowdown");
  CHECK(bin_label(SpeedupBin::minor_speedup) == "minor speedup");
  CHECK(bin_label(SpeedupBin::extreme_speedup) == "extreme speedup");
  CHECK(bin_range_text(SpeedupBin::severe_slowdown) == "S <= 0.25");
  CHECK(bin_range_text(SpeedupBin::minor_slowdown) == "0.71 < S <= 1.0");
  CHECK(bin_range_text(SpeedupBin::minor_speedup) == "1.0 < S <= 1.41");
  CHECK(bin_range_text(SpeedupBin::extreme_speedup) == "S > 4.0");

  SECTION("edges as speedups") {
    CHECK(bin_lower_edge(SpeedupBin::severe_slowdown) == 0.0);
    CHECK(bin_upper_edge(SpeedupBin::severe_slowdown) == 0.25);
    CHECK(bin_lower_edge(SpeedupBin::significant_slowdown) == 0.25);
    CHECK(bin_upper_edge(SpeedupBin::significant_slowdown) == 0.5);
    CHECK(bin_upper_edge(SpeedupBin::moderate_slowdown) == Approx(0.7071068));  // 2^-0.5
    CHECK(bin_lower_edge(SpeedupBin::minor_slowdown) == Approx(0.7071068));
    CHECK(bin_upper_edge(SpeedupBin::minor_slowdown) == 1.0);
    CHECK(bin_upper_edge(SpeedupBin::minor_speedup) == Approx(1.4142136));  // 2^0.5
    CHECK(bin_lower_edge(SpeedupBin::high_speedup) == 2.0);
    CHECK(bin_upper_edge(SpeedupBin::high_speedup) == 4.0);
    CHECK(bin_lower_edge(SpeedupBin::extreme_speedup) == 4.0);
    CHECK(std::isinf(bin_upper_edge(SpeedupBin::extreme_speedup)));
  }
  SECTION("each bin's edges are consistent with bin_from_speedup") {
    for (const SpeedupBin bin : all_speedup_bins) {
      if (bin != SpeedupBin::extreme_speedup) CHECK(bin_of(bin_upper_edge(bin)) == bin);
      if (bin != SpeedupBin::severe_slowdown) CHECK(bin_of(bin_lower_edge(bin) * 1.0001) == bin);
      CHECK(bin_of(representative_speedup(bin)) == bin);
    }
  }
}

TEST_CASE("forecast: bin midpoints in log2 space") {
  CHECK(midpoint_log2(SpeedupBin::severe_slowdown) == -2.25);      // representative [-2.5, -2]
  CHECK(midpoint_log2(SpeedupBin::significant_slowdown) == -1.5);  // [-2, -1]
  CHECK(midpoint_log2(SpeedupBin::moderate_slowdown) == -0.75);    // [-1, -0.5]
  CHECK(midpoint_log2(SpeedupBin::minor_slowdown) == -0.25);
  CHECK(midpoint_log2(SpeedupBin::minor_speedup) == 0.25);
  CHECK(midpoint_log2(SpeedupBin::significant_speedup) == 0.75);
  CHECK(midpoint_log2(SpeedupBin::high_speedup) == 1.5);      // [1, 2]
  CHECK(midpoint_log2(SpeedupBin::extreme_speedup) == 2.25);  // representative [2, 2.5]

  CHECK(bin_log2_span(SpeedupBin::severe_slowdown).low == -2.5);
  CHECK(bin_log2_span(SpeedupBin::extreme_speedup).high == 2.5);

  CHECK(representative_speedup(SpeedupBin::minor_speedup) == Approx(1.189207));    // 2^0.25
  CHECK(representative_speedup(SpeedupBin::minor_slowdown) == Approx(0.840896));   // 2^-0.25
  CHECK(representative_speedup(SpeedupBin::severe_slowdown) == Approx(0.210224));  // 2^-2.25
  CHECK(representative_speedup(SpeedupBin::extreme_speedup) == Approx(4.756828));  // 2^2.25
  CHECK(representative_speedup(SpeedupBin::high_speedup) == Approx(2.828427));     // 2^1.5
}
