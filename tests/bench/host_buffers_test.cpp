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
