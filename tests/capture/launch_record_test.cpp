// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cstring>

#include "capture/injection/launch_record.hpp"

using namespace kforecast::capture::injection;

namespace {

std::vector<std::byte> bytes_of_value(auto value) {
  std::vector<std::byte> bytes(sizeof value);
  std::memcpy(bytes.data(), &value, sizeof value);
  return bytes;
}

// A launch of `slots` whose parameter values are `values` (by ordinal), against `table`.
LaunchRecord classified(const std::vector<ParameterSlot>& slots, const std::vector<std::vector<std::byte>>& values,
                        const AllocationTable& table) {
  LaunchRecord record{.mangled = "_Z1kv"};
  record.layout_known = true;
  classify_parameters(
      record, slots,
      [&](const ParameterSlot& slot) -> std::optional<std::vector<std::byte>> {
        if (slot.ordinal >= values.size()) return std::nullopt;
        return values[slot.ordinal];
      },
      [&](std::uint64_t address) { return table.find(address); });
  return record;
}

}  // namespace

TEST_CASE("capture allocation table: an address resolves to the allocation holding it") {
  AllocationTable table;
  table.add(0x1000, 0x100);
  table.add(0x2000, 0x10);
  CHECK(table.find(0x1000) == Allocation{0x1000, 0x100});
  CHECK(table.find(0x10ff) == Allocation{0x1000, 0x100});
  CHECK_FALSE(table.find(0x1100));  // one past the end
  CHECK_FALSE(table.find(0xfff));
  table.remove(0x1000);
  CHECK_FALSE(table.find(0x1000));
  table.add(0x3000, 0);
  CHECK(table.size() == 1);
}

TEST_CASE("capture launch record: pointers, values and pointers inside structs") {
  AllocationTable table;
  table.add(0x7f0000000000, 4096);
  table.add(0x7f0000100000, 1 << 20);
  const std::vector<ParameterSlot> slots = {{0, 0, 4}, {1, 8, 8}, {2, 16, 8}, {3, 24, 16}, {4, 40, 8}};
  struct Span {
    std::uint64_t data;
    std::uint64_t size;
  };
  const auto record = classified(slots,
                                 {bytes_of_value(2.5f), bytes_of_value(std::uint64_t{0x7f0000000010}),
                                  bytes_of_value(std::uint64_t{0x7f0000100000}),
                                  bytes_of_value(Span{0x7f0000100040, 16}), bytes_of_value(std::uint64_t{12345})},
                                 table);
  REQUIRE(record.parameters.size() == 5);
  CHECK(record.parameters[0].kind == ParameterKind::value);
  CHECK(hex(record.parameters[0].bytes) == "00002040");
  CHECK(record.parameters[1].kind == ParameterKind::pointer);
  CHECK(record.parameters[1].allocation == 0);
  CHECK(record.parameters[1].offset_in_allocation == 0x10);
  CHECK(record.parameters[2].kind == ParameterKind::pointer);
  CHECK(record.parameters[2].allocation == 1);
  CHECK(record.parameters[3].kind == ParameterKind::pointer_inside);
  CHECK(record.parameters[3].reason == "bytes 0-7 point into allocation 1");
  CHECK(record.parameters[4].kind == ParameterKind::value);  // a size_t that points nowhere
  REQUIRE(record.allocations.size() == 2);
  CHECK(record.allocations[0].lowest_offset == 0x10);
  CHECK(record.allocations[1].lowest_offset == 0);
}

TEST_CASE("capture launch record: a parameter the launch did not pass is a note") {
  const auto record = classified({{0, 0, 8}, {1, 8, 4}}, {bytes_of_value(std::uint64_t{1})}, AllocationTable{});
  REQUIRE(record.parameters.size() == 2);
  REQUIRE(record.notes.size() == 1);
  CHECK_THAT(record.notes[0], Catch::Matchers::Contains("parameter 1") && Catch::Matchers::Contains("cannot replay"));
}

TEST_CASE("capture launch record: regions within the byte budget") {
  auto record_with = [](std::uint64_t bytes, std::uint64_t lowest) {
    LaunchRecord record;
    record.allocations.push_back(AllocationRecord{.allocation = {0x1000, bytes}, .lowest_offset = lowest});
    return record;
  };
  SECTION("the whole allocation where it fits") {
    auto record = record_with(1024, 64);
    std::uint64_t budget = 4096;
    choose_regions(record, budget);
    CHECK(record.allocations[0].contents == Contents::captured);
    CHECK(record.allocations[0].region_offset == 0);
    CHECK(record.allocations[0].region_bytes == 1024);
    CHECK(budget == 3072);
    CHECK(record.notes.empty());
  }
  SECTION("a pool: from the lowest pointer on, said in a note") {
    auto record = record_with(8 << 20, (8 << 20) - 4096);
    std::uint64_t budget = 1 << 20;
    choose_regions(record, budget);
    CHECK(record.allocations[0].contents == Contents::captured);
    CHECK(record.allocations[0].region_offset == (8 << 20) - 4096);
    CHECK(record.allocations[0].region_bytes == 4096);
    REQUIRE(record.notes.size() == 1);
    CHECK_THAT(record.notes[0],
               Catch::Matchers::Contains("allocation 0 (8 MiB): kept the 4 KiB from the lowest pointer on"));
  }
  SECTION("over the budget: synthetic, said in a note, the budget untouched") {
    auto record = record_with(8 << 20, 0);
    std::uint64_t budget = 1 << 20;
    choose_regions(record, budget);
    CHECK(record.allocations[0].contents == Contents::synthetic);
    CHECK(budget == 1 << 20);
    REQUIRE(record.notes.size() == 1);
    CHECK_THAT(record.notes[0], Catch::Matchers::Contains("over the byte budget (1 MiB left)"));
  }
}

TEST_CASE("capture launch record: the shape is grid, block, shared memory and values, not pointers") {
  AllocationTable table;
  table.add(0x10000, 4096);
  table.add(0x20000, 4096);
  const std::vector<ParameterSlot> slots = {{0, 0, 8}, {1, 8, 4}};
  const auto first = classified(slots, {bytes_of_value(std::uint64_t{0x10000}), bytes_of_value(100)}, table);
  const auto other_buffer = classified(slots, {bytes_of_value(std::uint64_t{0x20000}), bytes_of_value(100)}, table);
  const auto other_size = classified(slots, {bytes_of_value(std::uint64_t{0x10000}), bytes_of_value(200)}, table);
  CHECK(shape_key(first) == shape_key(other_buffer));
  CHECK(shape_key(first) != shape_key(other_size));
  auto other_grid = first;
  other_grid.shape.grid[0] = 2;
  CHECK(shape_key(first) != shape_key(other_grid));
}

TEST_CASE("capture launch record: byte counts read as people write them") {
  CHECK(byte_count(512) == "512 B");
  CHECK(byte_count(4096) == "4 KiB");
  CHECK(byte_count(4 << 20) == "4 MiB");
  CHECK(byte_count(std::uint64_t{3} << 30) == "3 GiB");
  CHECK(byte_count(1500) == "1500 B");
}
