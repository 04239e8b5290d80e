// SPDX-License-Identifier: Apache-2.0
#include "capture/capture_reader.hpp"

#include <catch2/catch.hpp>

#include "recorded_capture.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::capture;

namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("capture: the writer's text reads back field for field") {
  const Capture recorded = testing::saxpy_capture();
  auto read = parse_capture_json(capture_json(recorded), "saxpy-0.json");
  REQUIRE(read);
  CHECK(read->kernel.mangled == "_Z5saxpyifPKfPf");
  CHECK(read->kernel.demangled == recorded.kernel.demangled);
  CHECK(read->kernel.module == "0123abcd");
  CHECK(read->program == recorded.program);
  CHECK(read->device_name == recorded.device_name);
  CHECK(read->compute_capability == "9.0");
  CHECK(read->grid == recorded.grid);
  CHECK(read->block == recorded.block);
  REQUIRE(read->parameters.size() == 4);
  CHECK(read->parameters[0].bytes == testing::int_bytes(16));
  CHECK(read->parameters[1].bytes == testing::float_bytes({2.0f}));
  CHECK(read->parameters[3].kind == ParameterKind::pointer);
  CHECK(read->parameters[3].allocation == 1);
  CHECK(read->parameters[3].offset_in_allocation == 16);
  REQUIRE(read->allocations.size() == 2);
  CHECK(read->allocations[1].region_bytes == 16 * 4 + 16);
  CHECK(read->allocations[1].blob == "blobs/y.bin");
  CHECK(read->notes == recorded.notes);
  CHECK(capture_json(*read) == capture_json(recorded));
}

TEST_CASE("capture: the design note's example reads, pointer_inside and all") {
  const std::string text = R"json({
  "kforecast_capture": 1,
  "kernel": {"mangled": "_Z5scalePffi", "demangled": "scale(float*, float, int)", "module": "ab"},
  "program": ["./build/tests/kernel_test", "--gtest_filter=Scale.*"],
  "device": {"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0"},
  "launch": {"grid": [1024, 1, 1], "block": [256, 1, 1], "shared_bytes": 0},
  "ordinal": 0,
  "parameters": [
    {"index": 0, "offset": 0, "size": 8, "kind": "pointer", "allocation": 0, "offset_in_allocation": 0},
    {"index": 1, "offset": 8, "size": 4, "kind": "value", "hex": "0000c03f"},
    {"index": 2, "offset": 12, "size": 4, "kind": "value", "hex": "00000400"},
    {"index": 3, "offset": 16, "size": 24, "kind": "pointer_inside", "hex": "000000000000000000000000000000000000000000000000",
     "reason": "bytes 8-15 point into allocation 1"}
  ],
  "allocations": [
    {"id": 0, "bytes": 4194304, "region_offset": 0, "region_bytes": 4194304, "contents": "captured", "blob": "blobs/3f1a.bin"}
  ],
  "notes": ["allocation 1: 512 MiB pool, kept the 4 MiB from the pointer on (byte budget)"]
})json";
  auto read = parse_capture_json(text, "scale-0.json");
  REQUIRE(read);
  CHECK(read->parameters[3].kind == ParameterKind::pointer_inside);
  CHECK(read->parameters[3].reason == "bytes 8-15 point into allocation 1");
  float scale = 0;
  std::memcpy(&scale, read->parameters[1].bytes.data(), 4);
  CHECK(scale == 1.5f);
}

TEST_CASE("capture: a bad field is an error naming the file and the field") {
  const std::string good = capture_json(testing::saxpy_capture());
  struct Case {
    std::string from, to, field;
  };
  const std::vector<Case> cases{
      {"\"kforecast_capture\": 1", "\"kforecast_capture\": 2", "kforecast_capture: version 2"},
      {"\"kforecast_capture\": 1,", "", "kforecast_capture: missing"},
      {"\"mangled\": \"_Z5saxpyifPKfPf\"", "\"mangled\": \"\"", "kernel.mangled: empty"},
      {"\"mangled\": \"_Z5saxpyifPKfPf\"", "\"mangled\": 7", "kernel.mangled: expected a string"},
      {"\"grid\": [1, 1, 1]", "\"grid\": [0, 1, 1]", "launch.grid[0]: 0 is outside"},
      {"\"grid\": [1, 1, 1]", "\"grid\": [1, 1]", "launch.grid: expected three integers"},
      {"\"block\": [256, 1, 1]", "\"block\": [256, 8, 1]", "launch.block: more than 1024 threads"},
      {"\"block\": [256, 1, 1]", "\"block\": [-256, 1, 1]", "launch.block[0]: expected a non-negative integer"},
      {"\"shared_bytes\": 0", "\"shared_bytes\": 99999999", "launch.shared_bytes"},
      {"\"ordinal\": 0", "\"ordinal\": \"first\"", "ordinal: expected a non-negative integer"},
      {"{\"index\": 1,", "{\"index\": 2,", "parameters[1].index: 2 where 1 was expected"},
      {"\"offset\": 4,", "\"offset\": 2,", "parameters[1].offset: 2 overlaps"},
      {"\"kind\": \"value\", \"hex\": \"10000000\"", "\"kind\": \"scalar\", \"hex\": \"10000000\"",
       "parameters[0].kind: 'scalar' is not"},
      {"\"hex\": \"10000000\"", "\"hex\": \"1000\"", "parameters[0].hex: expected 8 hex digits"},
      {"\"hex\": \"10000000\"", "\"hex\": \"1000000g\"", "parameters[0].hex: 'g' is not a hex digit"},
      {"\"hex\": \"10000000\"", "\"text\": \"10000000\"", "parameters[0].hex: missing"},
      {"\"size\": 8, \"kind\": \"pointer\", \"allocation\": 0", "\"size\": 4, \"kind\": \"pointer\", \"allocation\": 0",
       "parameters[2].size: a pointer has 8 bytes"},
      {"\"allocation\": 1", "\"allocation\": 5", "parameters[3].allocation: 5 is not the id"},
      {"\"offset_in_allocation\": 16", "\"offset_in_allocation\": 999999", "parameters[3].offset_in_allocation"},
      {"{\"id\": 1,", "{\"id\": 0,", "allocations[1].id: 0 is used twice"},
      {"\"region_bytes\": 80", "\"region_bytes\": 99999", "allocations[1].region_bytes"},
      {"\"contents\": \"captured\", \"blob\": \"blobs/x.bin\"", "\"contents\": \"kept\", \"blob\": \"blobs/x.bin\"",
       "allocations[0].contents: 'kept'"},
      {"\"blob\": \"blobs/x.bin\"", "\"blob\": \"../x.bin\"", "allocations[0].blob: '../x.bin' leaves"},
      {"\"blob\": \"blobs/x.bin\"", "\"blob\": \"/etc/passwd\"", "allocations[0].blob: '/etc/passwd' is absolute"},
      {"\"blob\": \"blobs/x.bin\"", "\"blob\": \"blobs//x.bin\"", "allocations[0].blob"},
      {"\"blob\": \"blobs/x.bin\"", "\"blob\": \"blobs\\\\x.bin\"", "allocations[0].blob"},
      {", \"blob\": \"blobs/x.bin\"", "", "allocations[0].blob: missing"},
      {"\"contents\": \"captured\", \"blob\": \"blobs/x.bin\"", "\"contents\": \"synthetic\", \"blob\": \"blobs/x.bin\"",
       "allocations[0].blob: a synthetic allocation has no blob"},
      {"\"notes\": [", "\"notes\": [3, ", "notes[0]: expected a string"},
      {"\"parameters\": [", "\"parameters\": \"none\", \"unused\": [", "parameters: expected an array"},
  };
  for (const auto& c : cases) {
    INFO(c.to);
    auto read = parse_capture_json(replaced(good, c.from, c.to), "captures/saxpy-0.json");
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error().message, Catch::Contains("captures/saxpy-0.json: "));
    CHECK_THAT(read.error().message, Catch::Contains(c.field));
  }
}

TEST_CASE("capture: text that is not a capture is an error, not a capture") {
  for (const std::string text : {"", "not json", "[]", "null", "{}", "{\"kforecast_capture\": 1}"}) {
    INFO(text);
    auto read = parse_capture_json(text, "x.json");
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error().message, Catch::StartsWith("x.json: "));
  }
  CHECK_FALSE(parse_capture_json(std::string(max_capture_file_bytes + 1, ' '), "big.json"));
}

TEST_CASE("capture: blobs are checked when the file is read") {
  testing::TempDir dir;
  const auto folder = dir.path() / "captures" / "k";
  const auto file = testing::write_capture(folder, testing::saxpy_capture());

  SECTION("a complete capture reads, and its blobs too") {
    auto read = read_capture_file(file);
    REQUIRE(read);
    auto blob = read_blob(file, read->allocations[0], 0);
    REQUIRE(blob);
    CHECK(blob->size() == 64);
  }
  SECTION("a missing blob is named") {
    std::filesystem::remove(folder / "blobs" / "y.bin");
    auto read = read_capture_file(file);
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error().message, Catch::Contains("allocations[1].blob: 'blobs/y.bin' does not exist"));
    CHECK_THAT(read.error().message, Catch::Contains(file.generic_string()));
  }
  SECTION("a blob of the wrong size is refused") {
    testing::write_bytes(folder / "blobs" / "x.bin", std::vector<std::byte>(63));
    auto read = read_capture_file(file);
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error().message, Catch::Contains("'blobs/x.bin' has 63 bytes where region_bytes says 64"));
  }
  SECTION("a blob that is a symbolic link out of the folder is refused") {
    const auto outside = dir.path() / "secret.bin";
    testing::write_bytes(outside, std::vector<std::byte>(64));
    std::filesystem::remove(folder / "blobs" / "x.bin");
    std::filesystem::create_symlink(outside, folder / "blobs" / "x.bin");
    auto read = read_capture_file(file);
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error().message, Catch::Contains("leads outside the capture's folder"));
  }
  SECTION("a blob folder that is a symbolic link out of the folder is refused") {
    const auto outside = dir.path() / "elsewhere";
    std::filesystem::rename(folder / "blobs", outside);
    std::filesystem::create_directory_symlink(outside, folder / "blobs");
    auto read = read_capture_file(file);
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error().message, Catch::Contains("leads outside the capture's folder"));
  }
  SECTION("a missing capture file is named") {
    auto read = read_capture_file(folder / "nothing.json");
    REQUIRE_FALSE(read);
    CHECK_THAT(read.error().message, Catch::Contains("nothing.json: no such capture file"));
  }
}
