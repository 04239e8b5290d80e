// SPDX-License-Identifier: Apache-2.0
// The capture file as the injection library writes it: JSON a strict parser reads, the fields of
// docs/design/capture.md, blobs named by their SHA-256, and the folder layout.

#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#include "capture/injection/capture_files.hpp"
#include "capture/injection/sha256.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::capture::injection;
namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

LaunchRecord sample_record() {
  LaunchRecord record{.mangled = "_Z5scalePffi", .demangled = "scale(float*, float, int)", .module = "ab12"};
  record.layout_known = true;
  record.shape = {.grid = {1024, 1, 1}, .block = {256, 1, 1}, .shared_bytes = 0};
  record.parameters.push_back(
      ParameterRecord{.slot = {0, 0, 8}, .kind = ParameterKind::pointer, .allocation = 0, .offset_in_allocation = 16});
  record.parameters.push_back(ParameterRecord{.slot = {1, 8, 4},
                                              .kind = ParameterKind::value,
                                              .bytes = {std::byte{0}, std::byte{0}, std::byte{0xc0}, std::byte{0x3f}}});
  record.parameters.push_back(ParameterRecord{.slot = {2, 16, 16},
                                              .kind = ParameterKind::pointer_inside,
                                              .bytes = std::vector<std::byte>(16, std::byte{1}),
                                              .reason = "bytes 0-7 point into allocation 1"});
  record.allocations.push_back(AllocationRecord{.allocation = {0x1000, 64},
                                                .region_bytes = 64,
                                                .contents = Contents::captured,
                                                .data = std::vector<std::byte>(64, std::byte{7})});
  record.allocations.push_back(
      AllocationRecord{.allocation = {0x9000, 1 << 30}, .region_bytes = 1 << 30, .contents = Contents::synthetic});
  record.notes.emplace_back("allocation 1 (1 GiB): over the byte budget \"quoted\"\n");
  return record;
}

}  // namespace

TEST_CASE("capture files: the capture file's fields") {
  kforecast::testing::TempDir dir;
  LaunchRecord record = sample_record();
  const ProgramFacts program{
      .argv = {"./kernel_test", "--filter=a b"}, .device_name = "NVIDIA H100", .compute_capability = "9.0"};
  REQUIRE(write_capture(dir.path().string(), record, program).empty());

  const fs::path folder = dir.path() / kernel_folder_name("_Z5scalePffi");
  CHECK(kernel_folder_name("_Z5scalePffi").size() == 16);
  const fs::path file = folder / capture_file_name(record);
  REQUIRE(fs::exists(file));
  CHECK(file.filename().string().ends_with("-0.json"));

  const auto root = nlohmann::json::parse(read_file(file));
  CHECK(root.at("kforecast_capture").get<std::int64_t>() == 1);
  CHECK(root.at("kernel").at("mangled").get<std::string>() == "_Z5scalePffi");
  CHECK(root.at("kernel").at("demangled").get<std::string>() == "scale(float*, float, int)");
  CHECK(root.at("program").at(1).get<std::string>() == "--filter=a b");
  CHECK(root.at("device").at("compute_capability").get<std::string>() == "9.0");
  CHECK(root.at("launch").at("grid").at(0).get<std::uint64_t>() == 1024);
  CHECK(root.at("launch").at("block").at(0).get<std::uint64_t>() == 256);
  CHECK(root.at("ordinal").get<std::uint64_t>() == 0);
  const auto& parameters = root.at("parameters");
  CHECK(parameters.at(0).at("kind").get<std::string>() == "pointer");
  CHECK(parameters.at(0).at("offset_in_allocation").get<std::uint64_t>() == 16);
  CHECK(parameters.at(1).at("hex").get<std::string>() == "0000c03f");
  CHECK(parameters.at(2).at("offset").get<std::uint64_t>() == 16);
  CHECK(parameters.at(2).at("reason").get<std::string>() == "bytes 0-7 point into allocation 1");
  const auto& captured = root.at("allocations").at(0);
  CHECK(captured.at("contents").get<std::string>() == "captured");
  const std::string blob = captured.at("blob").get<std::string>();
  CHECK(blob.starts_with("blobs/"));
  const std::string contents = read_file(folder / blob);
  CHECK(contents == std::string(64, '\7'));
  CHECK(blob == "blobs/" + sha256_hex(std::as_bytes(std::span(contents.data(), contents.size()))) + ".bin");
  const auto& synthetic = root.at("allocations").at(1);
  CHECK(synthetic.at("contents").get<std::string>() == "synthetic");
  CHECK(!synthetic.contains("blob"));
  CHECK(root.at("notes").at(0).get<std::string>() == "allocation 1 (1 GiB): over the byte budget \"quoted\"\n");
  CHECK(record.allocations[0].data.empty());  // written, then dropped
  CHECK_FALSE(fs::exists(file.string() + ".tmp"));
}

TEST_CASE("capture files: an unknown layout writes parameters as null") {
  LaunchRecord record{.mangled = "_Z1kv"};
  record.notes.emplace_back("no loaded module gave this kernel's parameter layout");
  const auto root = nlohmann::json::parse(capture_json(record, {}));
  CHECK(root.at("parameters").is_null());
}

TEST_CASE("capture files: equal contents are kept once, shapes and ordinals name the files") {
  kforecast::testing::TempDir dir;
  LaunchRecord first = sample_record();
  LaunchRecord second = sample_record();
  second.ordinal = 1;
  REQUIRE(write_capture(dir.path().string(), first, {}).empty());
  REQUIRE(write_capture(dir.path().string(), second, {}).empty());
  const fs::path folder = dir.path() / kernel_folder_name("_Z5scalePffi");
  CHECK(std::distance(fs::directory_iterator(folder / "blobs"), fs::directory_iterator()) == 1);
  CHECK(capture_file_name(second).ends_with("-1.json"));
  CHECK(capture_file_name(first).substr(0, 12) == capture_file_name(second).substr(0, 12));
  CHECK(fs::exists(folder / capture_file_name(second)));
}

TEST_CASE("capture files: a folder that cannot be made is an error message, not an exception") {
  kforecast::testing::TempDir dir;
  std::ofstream(dir.path() / "file") << "x";
  LaunchRecord record = sample_record();
  const std::string problem = write_capture((dir.path() / "file").string(), record, {});
  CHECK_THAT(problem, Catch::Matchers::Contains("cannot create"));
}

TEST_CASE("capture files: JSON strings escape what JSON requires") {
  CHECK(json_quoted("a\"b\\c\n\t\x01") == "\"a\\\"b\\\\c\\n\\t\\u0001\"");
}
