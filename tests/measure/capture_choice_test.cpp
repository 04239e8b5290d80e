// SPDX-License-Identifier: Apache-2.0
// prepare_pair with captured launches: a kernel without a launch spec is measured from its
// captures in capture.dir, or from those --capture names; a capture that cannot be replayed is a
// usage error naming the file and the field before any GPU work.
#include <fstream>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "capture/recorded_capture.hpp"
#include "config/config.hpp"
#include "measure/bench_measure.hpp"
#include "support/bench_world.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::measure;
using Catch::Matchers::Contains;

namespace {

const std::string copy_file = std::string(KF_SOURCE_DIR) + "/fixtures/bench/copy.cu";

config::Config config_with_capture_dir(const std::filesystem::path& dir) {
  auto config = config::parse_config(fmt::format("[capture]\ndir = \"{}\"\n", dir.generic_string()), ".kforecast.toml");
  REQUIRE(config);
  return *config;
}

std::expected<measure::PreparedPair, measure::PairProblem> prepare(const std::string& kernel, const config::Config& config,
                                                 const std::string& capture = "") {
  static const EnvLookup env = fixed_environment({});
  measure::BenchPair pair{copy_file + ":" + kernel, copy_file + ":" + kernel, "", ""};
  pair.capture = capture;
  return measure::prepare_pair(pair, config, testing::bench_world(env));
}

}  // namespace

TEST_CASE("capture choice: a kernel without a spec is measured from its captures in capture.dir") {
  testing::TempDir dir;
  const auto folder = dir.path() / "captures" / "k1";
  testing::write_capture(folder, testing::copy_capture(4096, "copy_strided"), "copy_strided-0");
  auto pair = prepare("copy_strided", config_with_capture_dir(dir.path() / "captures"));
  REQUIRE(pair.has_value());
  REQUIRE(pair->replay.captures.size() == 1);
  CHECK(pair->replay.captures[0].file.filename() == "copy_strided-0.json");
  CHECK(pair->replay.path == folder.string());  // what pr hands its measuring child as --capture
  CHECK(pair->reference_spec.sizes.empty());

  // The child, given that folder, finds the same capture.
  auto again = prepare("copy_strided", config_with_capture_dir(dir.path() / "elsewhere"), pair->replay.path);
  REQUIRE(again.has_value());
  CHECK(again->replay.captures.size() == 1);
}

TEST_CASE("capture choice: without a spec or a capture, the message points to kforecast capture") {
  testing::TempDir dir;
  auto pair = prepare("copy_strided", config_with_capture_dir(dir.path() / "captures"));
  REQUIRE_FALSE(pair.has_value());
  CHECK(pair.error().kind == PairProblem::Kind::no_launch_spec);
  CHECK_THAT(pair.error().error.message, Contains("no launch spec for kernel 'copy_strided'") &&
                                             Contains("kforecast capture -- COMMAND") &&
                                             Contains("kforecast spec suggest"));
}

TEST_CASE("capture choice: --capture replaces a spec, and a bad capture is an error naming file and field") {
  testing::TempDir dir;
  const auto config = config_with_capture_dir(dir.path() / "none");
  auto recorded = testing::copy_capture(1024);
  const auto file = testing::write_capture(dir.path() / "k", recorded, "copy-0");

  SECTION("a good one replaces copy's comment spec") {
    auto pair = prepare("copy", config, file.string());
    REQUIRE(pair.has_value());
    CHECK(pair->replay.captures.size() == 1);
  }
  SECTION("a missing blob") {
    std::filesystem::remove(dir.path() / "k" / "blobs" / "y.bin");
    auto pair = prepare("copy", config, file.string());
    REQUIRE_FALSE(pair.has_value());
    CHECK(pair.error().kind == PairProblem::Kind::other);
    CHECK(pair.error().error.exit_code == ExitCode::usage);
    CHECK_THAT(pair.error().error.message, Contains("copy-0.json: allocations[1].blob: 'blobs/y.bin' does not exist"));
  }
  SECTION("a bad field") {
    std::ofstream(file) << "{\"kforecast_capture\": 1, \"kernel\": {\"mangled\": \"_Z4copyPKfPfi\"}}";
    auto pair = prepare("copy", config, file.string());
    REQUIRE_FALSE(pair.has_value());
    CHECK_THAT(pair.error().error.message, Contains("copy-0.json: kernel.demangled: missing"));
  }
  SECTION("a pointer inside an argument") {
    recorded.parameters[2] = {2, 16, 4, capture::ParameterKind::pointer_inside, -1, 0, {}, "bytes 0-3"};
    testing::write_capture(dir.path() / "k", recorded, "copy-0");
    auto pair = prepare("copy", config, file.string());
    REQUIRE_FALSE(pair.has_value());
    CHECK_THAT(pair.error().error.message, Contains("cannot replay: pointer inside argument 2 (bytes 0-3)"));
  }
  SECTION("a layout that is not the kernel's") {
    recorded.parameters.pop_back();
    testing::write_capture(dir.path() / "k", recorded, "copy-0");
    auto pair = prepare("copy", config, file.string());
    REQUIRE_FALSE(pair.has_value());
    CHECK_THAT(pair.error().error.message, Contains("the capture has 2 parameters and the kernel's signature 3"));
  }
  SECTION("a folder without this kernel's captures") {
    auto pair = prepare("copy_strided", config, (dir.path() / "k").string());
    REQUIRE_FALSE(pair.has_value());
    CHECK_THAT(pair.error().error.message, Contains("no capture of kernel 'copy_strided' there"));
  }
}

TEST_CASE("capture choice: a capture of another overload found by name is passed over, and said so") {
  testing::TempDir dir;
  auto recorded = testing::copy_capture(1024, "copy_strided");
  recorded.parameters.pop_back();  // copy_strided(const float*, float*): not the one in copy.cu
  testing::write_capture(dir.path() / "captures" / "k", recorded, "copy_strided-0");
  auto pair = prepare("copy_strided", config_with_capture_dir(dir.path() / "captures"));
  REQUIRE_FALSE(pair.has_value());
  CHECK(pair.error().kind == PairProblem::Kind::other);
  CHECK_THAT(pair.error().error.message,
             Contains("no capture of kernel 'copy_strided' can be replayed") && Contains("copy_strided-0.json"));
}
