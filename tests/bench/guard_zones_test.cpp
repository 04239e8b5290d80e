// SPDX-License-Identifier: Apache-2.0
#include "bench/guard_zones.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::bench;

TEST_CASE("bench guard zones: the layout keeps the buffer aligned and the back zone starts at its end") {
  SECTION("a buffer that is not a multiple of the alignment") {
    const auto layout = guarded_layout(4000);  // 1000 floats
    CHECK(layout.buffer_offset == guard_zone_bytes);
    CHECK(layout.buffer_offset % device_alignment == 0);
    CHECK(layout.back_offset == guard_zone_bytes + 4000);
    // The padding up to the next 256 bytes belongs to the back zone: a store there is out of bounds too.
    CHECK(layout.back_bytes == guard_zone_bytes + (4096 - 4000));
    CHECK(layout.allocation_bytes == layout.back_offset + layout.back_bytes);
    CHECK(layout.allocation_bytes % device_alignment == 0);
  }
  SECTION("a zone size that is not a multiple of the alignment is rounded up") {
    const auto layout = guarded_layout(512, 300);
    CHECK(layout.front_bytes() == 512);
    CHECK(layout.back_bytes == 512);
    CHECK(layout.allocation_bytes == 1536);
  }
  SECTION("an empty buffer still has both zones") {
    const auto layout = guarded_layout(0);
    CHECK(layout.front_bytes() == guard_zone_bytes);
    CHECK(layout.back_bytes == guard_zone_bytes);
  }
}

TEST_CASE("bench guard zones: the pattern depends on the address") {
  const auto a = guard_pattern(0x7f0000001000, 64);
  const auto b = guard_pattern(0x7f0000002000, 64);
  CHECK(a.size() == 64);
  CHECK(a != b);
  // The same address gives the same bytes, so a zone written once can be checked later.
  CHECK(guard_pattern(0x7f0000001000, 64) == a);
  // Not a constant fill: a store of zeros or of one repeated byte cannot match a run of it.
  CHECK(std::count(a.begin(), a.end(), a.front()) < 8);
  // A shorter pattern is the start of a longer one at the same address (zones are read whole).
  CHECK(std::equal(a.begin(), a.begin() + 16, guard_pattern(0x7f0000001000, 16).begin()));
}

TEST_CASE("bench guard zones: an intact zone passes and a changed one says how far the write reached") {
  const std::uint64_t address = 0x7f0000010000;
  auto zone = guard_pattern(address, 512);
  CHECK_FALSE(check_zone(ZoneSide::after, address, zone));
  CHECK_FALSE(check_zone(ZoneSide::before, address, zone));

  SECTION("y[n] of a float, after the buffer") {
    for (int i = 0; i < 4; ++i) zone[static_cast<std::size_t>(i)] = ~zone[static_cast<std::size_t>(i)];
    const auto damage = check_zone(ZoneSide::after, address, zone);
    REQUIRE(damage);
    CHECK(damage->reach == 4);
    CHECK(damage->changed == 4);
    CHECK(damage->describe("y") == "wrote 4 bytes past 'y'");
  }
  SECTION("y[n + 100] of a float: four bytes changed, 404 bytes past the end") {
    for (std::size_t i = 400; i < 404; ++i) zone[i] = ~zone[i];
    const auto damage = check_zone(ZoneSide::after, address, zone);
    REQUIRE(damage);
    CHECK(damage->reach == 404);
    CHECK(damage->describe("y") == "wrote 4 bytes up to 404 bytes past 'y'");
  }
  SECTION("y[-1] of a double, before the buffer: counted from its first byte") {
    for (std::size_t i = 504; i < 512; ++i) zone[i] = ~zone[i];
    const auto damage = check_zone(ZoneSide::before, address, zone);
    REQUIRE(damage);
    CHECK(damage->reach == 8);
    CHECK(damage->describe("x") == "wrote 8 bytes before 'x'");
  }
  SECTION("one byte") {
    zone[0] = ~zone[0];
    CHECK(check_zone(ZoneSide::after, address, zone)->describe("flags") == "wrote 1 byte past 'flags'");
  }
  SECTION("the same bytes read against another address are not the pattern") {
    CHECK(check_zone(ZoneSide::after, address + 512, zone));
  }
}
