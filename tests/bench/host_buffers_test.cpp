// SPDX-License-Identifier: Apache-2.0
#include "bench/host_buffers.hpp"

#include <cmath>
#include <cstring>

#include <catch2/catch.hpp>

#include "bench/half_precision.hpp"

using namespace kforecast::bench;

namespace {

ResolvedArgument buffer(std::string_view type, std::int64_t count, std::string_view init) {
  ResolvedArgument argument;
  argument.name = "x";
  argument.type = *element_type(type);
  argument.buffer = true;
  argument.count = count;
  argument.init = *parse_init(init);
  argument.rtol = default_rtol(argument.type);
  argument.atol = default_atol(argument.type);
  return argument;
}

}  // namespace

TEST_CASE("bench: half and bfloat16 conversions") {
  CHECK(to_half_bits(1.0f) == 0x3C00);
  CHECK(to_half_bits(-2.0f) == 0xC000);
  CHECK(to_half_bits(65504.0f) == 0x7BFF);
  CHECK(to_half_bits(1e6f) == 0x7C00);  // infinity
  CHECK(from_half_bits(0x3C00) == 1.0f);
  CHECK(from_half_bits(0x0001) == Approx(5.96e-8).epsilon(1e-2));  // smallest subnormal
  CHECK(std::isnan(from_half_bits(0xFFFF)));
  for (float value : {0.1f, -3.25f, 1000.5f, 6.1e-5f})
    CHECK(from_half_bits(to_half_bits(value)) == Approx(value).epsilon(1e-3));
  CHECK(to_bfloat16_bits(1.0f) == 0x3F80);
  CHECK(from_bfloat16_bits(to_bfloat16_bits(3.14159f)) == Approx(3.14159f).epsilon(1e-2));
  CHECK(std::isnan(from_bfloat16_bits(0xFFFF)));
}

TEST_CASE("bench: initial values follow the distribution and the seed") {
  const auto argument = buffer("float", 10000, "uniform(-1, 1)");
  const auto first = initial_values(argument, 1);
  REQUIRE(first.size() == 40000);
  CHECK(initial_values(argument, 1) == first);
  CHECK(initial_values(argument, 2) != first);
  double sum = 0;
  for (std::int64_t i = 0; i < 10000; ++i) {
    const double value = lane_value(argument.type, first, i);
    REQUIRE(value >= -1);
    REQUIRE(value < 1);
    sum += value;
  }
  CHECK(std::fabs(sum / 10000) < 0.05);
  const auto iota = buffer("int", 5, "iota(10, 3)");
  const auto values = initial_values(iota, 1);
  CHECK(lane_value(iota.type, values, 4) == 22);
  const auto halves = buffer("__half2", 4, "constant(0.5)");
  const auto half_values = initial_values(halves, 1);
  REQUIRE(half_values.size() == 16);
  CHECK(lane_value(halves.type, half_values, 7) == 0.5);
  const auto bytes = buffer("uint8_t", 1000, "randint(250, 255)");
  for (std::int64_t i = 0; i < 1000; ++i) REQUIRE(lane_value(bytes.type, initial_values(bytes, 3), i) >= 250);
  const auto normal = buffer("double", 1000, "normal(5, 0.1)");
  CHECK(std::fabs(lane_value(normal.type, initial_values(normal, 1), 3) - 5) < 1);
}

TEST_CASE("bench: outputs compare with dtype-aware tolerances") {
  auto argument = buffer("float", 4, "uniform(-1, 1)");
  std::vector<std::byte> reference(16), candidate(16);
  const float r[4] = {1.0f, 2.0f, -3.0f, 0.0f};
  float c[4] = {1.00005f, 2.0f, -3.0f, 0.0f};
  std::memcpy(reference.data(), r, 16);
  std::memcpy(candidate.data(), c, 16);
  auto same = compare_outputs(argument, reference, candidate);
  CHECK(same.agrees());
  CHECK(same.max_rel_error == Approx(5e-5).epsilon(0.1));
  c[2] = -3.01f;
  std::memcpy(candidate.data(), c, 16);
  auto different = compare_outputs(argument, reference, candidate);
  CHECK_FALSE(different.agrees());
  CHECK(different.mismatches == 1);
  CHECK(different.first_mismatch == 2);
  CHECK(different.describe().find("x: 1 of 4 elements differ; first at 2: reference -3, candidate -3.01") == 0);

  // An element the candidate never wrote still holds the poison (NaN) and disagrees.
  std::vector<std::byte> poisoned(16, poison_byte);
  std::memcpy(poisoned.data(), c, 8);
  CHECK(compare_outputs(argument, reference, poisoned).mismatches == 2);
  // Both unwritten: the same NaN on both sides agrees.
  CHECK(compare_outputs(argument, poisoned, poisoned).agrees());

  // Half precision tolerates 1e-2; integers are exact.
  auto halves = buffer("__half", 1, "uniform(-1, 1)");
  const std::uint16_t hr = to_half_bits(1.0f), hc = to_half_bits(1.005f);
  CHECK(compare_outputs(halves, std::as_bytes(std::span(&hr, 1)), std::as_bytes(std::span(&hc, 1))).agrees());
  auto ints = buffer("int", 1, "iota");
  const int ir = 7, ic = 8;
  CHECK_FALSE(compare_outputs(ints, std::as_bytes(std::span(&ir, 1)), std::as_bytes(std::span(&ic, 1))).agrees());
}

TEST_CASE("bench: half rounding is to nearest, ties to even") {
  // 1 + 2^-11 lies halfway between 1 and the next half (1 + 2^-10): ties go to the even one, 1.
  CHECK(to_half_bits(1.0f + 0x1.0p-11f) == 0x3C00);
  // 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even): up.
  CHECK(to_half_bits(1.0f + 3 * 0x1.0p-11f) == 0x3C02);
  CHECK(to_half_bits(1.0f + 0x1.0p-11f + 0x1.0p-20f) == 0x3C01);  // past halfway: up
  CHECK(to_half_bits(0x1.0p-25f) == 0x0000);                      // half the smallest subnormal: to even 0
  CHECK(to_half_bits(0x1.8p-24f) == 0x0002);                      // 1.5 subnormal steps: to even 2
}

TEST_CASE("bench: identical outputs agree at once, NaN and infinity included") {
  auto argument = buffer("float", 4, "uniform(-1, 1)");
  const float values[4] = {NAN, INFINITY, -INFINITY, 0.5f};
  const auto bytes = std::as_bytes(std::span(values));
  const auto same = compare_outputs(argument, bytes, bytes);
  CHECK(same.agrees());
  CHECK(same.elements == 4);
  CHECK(same.max_abs_error == 0);
  CHECK(same.max_rel_error == 0);
  // Outputs of different lengths compare over the shorter; nothing compared, nothing wrong.
  CHECK(compare_outputs(argument, bytes, bytes.first(8)).elements == 2);
  CHECK(compare_outputs(argument, bytes.first(0), bytes).elements == 0);
}

TEST_CASE("bench: a subnormal reference does not make the relative error infinite") {
  auto argument = buffer("double", 2, "uniform(-1, 1)");
  const double reference[2] = {1e-310, 1.0};
  const double candidate[2] = {1e300, 1.0};
  const auto comparison =
      compare_outputs(argument, std::as_bytes(std::span(reference)), std::as_bytes(std::span(candidate)));
  CHECK(comparison.mismatches == 1);
  CHECK(comparison.max_abs_error == Approx(1e300));
  CHECK(std::isfinite(comparison.max_rel_error));  // 1e300 / 1e-310 overflows: left out
}

TEST_CASE("bench: large buffers are drawn and compared in chunks with the same answer") {
  // Past the size where the work is split over threads (1M lanes per thread, where the machine
  // has several cores): the values must not depend on the split, and a comparison must report
  // the first mismatch of the whole buffer and count all of them.
  const std::int64_t lanes = 3 << 20;
  const auto argument = buffer("float", lanes, "uniform(-1, 1)");
  const auto values = initial_values(argument, 7);
  CHECK(initial_values(argument, 7) == values);
  auto small = argument;
  small.count = 1000;
  const auto prefix = initial_values(small, 7);
  CHECK(std::equal(prefix.begin(), prefix.end(), values.begin()));  // lane i's value depends on i, not the split
  auto changed = values;
  for (const std::int64_t lane : {std::int64_t{2} << 20, std::int64_t{1} << 20 | 5, lanes - 1}) {
    float value = 0;
    std::memcpy(&value, changed.data() + lane * 4, 4);
    value += 10;
    std::memcpy(changed.data() + lane * 4, &value, 4);
  }
  const auto comparison = compare_outputs(argument, values, changed);
  CHECK(comparison.elements == lanes);
  CHECK(comparison.mismatches == 3);
  CHECK(comparison.first_mismatch == (std::int64_t{1} << 20 | 5));
  CHECK(comparison.max_abs_error == Approx(10).epsilon(1e-4));

  const auto normal = buffer("float", 2 * lanes + 1, "normal(2, 0.5)");  // an odd count: the last pair is half used
  const auto drawn = initial_values(normal, 1);
  double sum = 0, squares = 0;
  for (std::int64_t i = 0; i < normal.count; ++i) {
    const double value = lane_value(normal.type, drawn, i);
    sum += value;
    squares += value * value;
  }
  const double mean = sum / static_cast<double>(normal.count);
  CHECK(mean == Approx(2).epsilon(1e-3));
  CHECK(std::sqrt(squares / static_cast<double>(normal.count) - mean * mean) == Approx(0.5).epsilon(1e-2));
}
