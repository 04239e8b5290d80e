// SPDX-License-Identifier: Apache-2.0
#include "capture/replay_launch.hpp"
#include "capture/capture_reader.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "bench/host_buffers.hpp"
#include "recorded_capture.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::capture;

TEST_CASE("capture: a capture becomes the launch the runner measures") {
  testing::TempDir dir;
  const auto recorded = testing::saxpy_capture();
  const auto file = testing::write_capture(dir.path(), recorded);
  auto launch = replay_launch(recorded, file, testing::saxpy_parameters(), "saxpy");
  REQUIRE(launch);
  CHECK(launch->grid == recorded.grid);
  CHECK(launch->block == recorded.block);
  CHECK(launch->size_text() == "capture saxpy-0");
  REQUIRE(launch->arguments.size() == 4);

  const auto& n = launch->arguments[0];
  CHECK_FALSE(n.buffer);
  CHECK(n.type.name == "int");
  CHECK(n.scalar_bytes == testing::int_bytes(16));
  CHECK(launch->arguments[1].scalar_bytes == testing::float_bytes({2.0f}));

  const auto& x = launch->arguments[2];
  CHECK(x.buffer);
  CHECK(x.name == "allocation 0");
  CHECK(x.type.name == "float");
  CHECK(x.count == 16);
  CHECK(x.pointer_offset == 0);
  CHECK(x.role == bench::Role::inout);
  CHECK(x.init.distribution == bench::Distribution::captured);
  // The buffer's initial values are the blob, whatever the seed.
  const auto values = bench::initial_values(x, 1);
  CHECK(values == bench::initial_values(x, 2));
  CHECK(bench::lane_value(x.type, values, 5) == 5.0);

  const auto& y = launch->arguments[3];
  CHECK(y.name == "allocation 1");
  CHECK(y.count == 20);            // the kept region: 16 floats and the 16 bytes before y
  CHECK(y.pointer_offset == 16);   // y points 16 bytes into it
  CHECK(bench::lane_value(y.type, bench::initial_values(y, 1), 19) == 0.5);
  CHECK(y.rtol == bench::default_rtol(y.type));

  CHECK(launch_source(recorded, file) == fmt::format("replayed capture {} (contents captured)", file.generic_string()));
}

TEST_CASE("capture: allocations over the byte budget get synthetic data by type") {
  testing::TempDir dir;
  auto recorded = testing::saxpy_capture();
  recorded.allocations[1].contents = Contents::synthetic;
  recorded.allocations[1].blob.clear();
  const auto file = testing::write_capture(dir.path(), recorded);
  auto launch = replay_launch(recorded, file, testing::saxpy_parameters(), "saxpy");
  REQUIRE(launch);
  const auto& y = launch->arguments[3];
  CHECK(y.init.distribution == bench::Distribution::uniform);
  const auto values = bench::initial_values(y, 1);
  CHECK(values.size() == 80);
  CHECK(std::abs(bench::lane_value(y.type, values, 0)) <= 1.0);
  CHECK_THAT(launch_source(recorded, file), Catch::Contains("synthetic data for allocation 1: over the byte budget"));
}

TEST_CASE("capture: two pointers into one allocation share its buffer, compared once") {
  testing::TempDir dir;
  auto recorded = testing::saxpy_capture();
  recorded.parameters[2].allocation = 1;
  recorded.parameters[2].offset_in_allocation = 0;
  const auto file = testing::write_capture(dir.path(), recorded);
  auto launch = replay_launch(recorded, file, testing::saxpy_parameters(), "saxpy");
  REQUIRE(launch);
  CHECK(launch->arguments[2].name == "allocation 1");
  CHECK(launch->arguments[3].name == "allocation 1");
  CHECK(launch->arguments[2].role == bench::Role::inout);
  CHECK(launch->arguments[3].role == bench::Role::in);
  CHECK(launch->arguments[3].pointer_offset == 16);
}

TEST_CASE("capture: an untyped pointer is restored and compared bytewise") {
  testing::TempDir dir;
  const auto recorded = testing::saxpy_capture();
  const auto file = testing::write_capture(dir.path(), recorded);
  auto parameters = testing::saxpy_parameters();
  parameters[3].type = "T*";
  auto launch = replay_launch(recorded, file, parameters, "saxpy<T>");
  REQUIRE(launch);
  CHECK(launch->arguments[3].type.name == "unsigned char");
  CHECK(launch->arguments[3].count == 80);
  CHECK(launch->arguments[3].rtol == 0);
  CHECK(launch->arguments[3].atol == 0);
}

TEST_CASE("capture: a launch that cannot be replayed faithfully is refused with the reason") {
  testing::TempDir dir;
  auto recorded = testing::saxpy_capture();
  auto parameters = testing::saxpy_parameters();
  const auto refused = [&](const std::string& why) {
    const auto file = testing::write_capture(dir.path(), recorded);
    auto launch = replay_launch(recorded, file, parameters, "saxpy");
    REQUIRE_FALSE(launch);
    CHECK_THAT(launch.error().message, Catch::Contains(why));
    CHECK_FALSE(check_replayable(recorded, parameters, "saxpy"));
  };
  SECTION("a pointer inside a by-value argument") {
    recorded.parameters[1] = {1, 4, 4, ParameterKind::pointer_inside, -1, 0, testing::float_bytes({0}),
                              "bytes 0-3 point into allocation 0"};
    refused("cannot replay: pointer inside argument 1 (bytes 0-3 point into allocation 0)");
  }
  SECTION("a launch whose layout the library did not know (a lazily loaded module), read back from its file") {
    recorded.parameters.clear();
    recorded.layout_unknown = true;
    const auto file = testing::write_capture(dir.path(), recorded);
    auto read = read_capture_file(file);
    REQUIRE(read);
    CHECK(read->layout_unknown);
    recorded = *read;
    refused("cannot replay: the kernel's parameter layout was not known at this launch");
  }
  SECTION("another parameter count") {
    parameters.pop_back();
    refused("the capture has 4 parameters and the kernel's signature 3");
  }
  SECTION("a value where the signature has a pointer") {
    parameters[0].type = "int*";
    refused("argument 0 ('n') is a pointer, and the capture gives it 4 bytes");
  }
  SECTION("a pointer where the signature has a value") {
    parameters[2].type = "double";
    refused("argument 2 ('x', double) is not a pointer");
  }
  SECTION("a value of another size") {
    parameters[1].type = "double";
    refused("argument 1 ('a', double) has 8 bytes, and the capture gives it 4");
  }
  SECTION("a pointer to pointers") {
    parameters[2].type = "const float**";
    refused("points to pointers");
  }
  SECTION("a pointer the capture could not resolve") {
    recorded.parameters[2] = {2, 8, 8, ParameterKind::value, -1, 0, testing::int_bytes(7), ""};
    recorded.parameters[2].bytes.resize(8);
    refused("a pointer the capture did not resolve");
  }
  SECTION("a pointer before the kept region") {
    recorded.allocations[1].region_offset = 32;
    recorded.allocations[1].region_bytes = 64;
    refused("argument 3 points at byte 16 of allocation 1, outside the kept region [32, 96)");
  }
}

TEST_CASE("capture: a null pointer argument replays as null") {
  testing::TempDir dir;
  auto recorded = testing::saxpy_capture();
  recorded.parameters[2] = {2, 8, 8, ParameterKind::value, -1, 0, std::vector<std::byte>(8), ""};
  const auto file = testing::write_capture(dir.path(), recorded);
  auto launch = replay_launch(recorded, file, testing::saxpy_parameters(), "saxpy");
  REQUIRE(launch);
  CHECK_FALSE(launch->arguments[2].buffer);
  CHECK(launch->arguments[2].scalar_bytes == std::vector<std::byte>(8));
}

TEST_CASE("capture: a blob missing at replay is named") {
  testing::TempDir dir;
  const auto recorded = testing::saxpy_capture();
  const auto file = testing::write_capture(dir.path(), recorded);
  std::filesystem::remove(dir.path() / "blobs" / "x.bin");
  auto launch = replay_launch(recorded, file, testing::saxpy_parameters(), "saxpy");
  REQUIRE_FALSE(launch);
  CHECK_THAT(launch.error().message, Catch::Contains("allocations[0].blob: 'blobs/x.bin' does not exist"));
}

TEST_CASE("capture: a capture must match the parameter layout of the kernel's machine code") {
  const auto recorded = testing::saxpy_capture();
  CHECK(check_parameter_layout(recorded, {{0, 0, 4}, {1, 4, 4}, {2, 8, 8}, {3, 16, 8}}, "saxpy"));
  auto fewer = check_parameter_layout(recorded, {{0, 0, 4}, {1, 4, 4}, {2, 8, 8}}, "saxpy");
  REQUIRE_FALSE(fewer);
  CHECK_THAT(fewer.error().message, Catch::Contains("the capture has 4 parameters and the kernel's machine code 3"));
  auto moved = check_parameter_layout(recorded, {{0, 0, 4}, {1, 8, 8}, {2, 16, 8}, {3, 24, 8}}, "saxpy");
  REQUIRE_FALSE(moved);
  CHECK_THAT(moved.error().message,
             Catch::Contains("argument 1 is 8 bytes at offset 8 in the kernel's machine code, and 4 bytes at offset 4 "
                             "in the capture"));
}

TEST_CASE("capture: the second kernel of a pair shares the first's captured contents") {
  testing::TempDir dir;
  const auto recorded = testing::saxpy_capture();
  const auto file = testing::write_capture(dir.path(), recorded);
  auto reference = replay_launch(recorded, file, testing::saxpy_parameters(), "reference");
  REQUIRE(reference);
  std::filesystem::remove_all(dir.path() / "blobs");  // not read again
  auto candidate = replay_launch(recorded, file, testing::saxpy_parameters(), "candidate", &*reference);
  REQUIRE(candidate);
  CHECK(candidate->arguments[2].init.captured == reference->arguments[2].init.captured);
  CHECK(candidate->arguments[3].init.captured == reference->arguments[3].init.captured);
}
