// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "capture/capture_request.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::capture;
using Catch::Matchers::Contains;

namespace {
const std::filesystem::path cwd = "/work/repo/build";
const std::filesystem::path root = "/work/repo";

CaptureOptions with_command() { return CaptureOptions{.command = {"./kernel_test", "--filter", "a"}}; }
}  // namespace

TEST_CASE("capture request: defaults") {
  const auto request = make_capture_request(with_command(), cwd, root);
  REQUIRE(request);
  CHECK(request->dir == "/work/repo/.kforecast/captures");
  CHECK(request->launches_per_shape == 1);
  CHECK(request->byte_budget == 256u << 20);
  CHECK(request->kernels == "*");
  CHECK(request->command == std::vector<std::string>{"./kernel_test", "--filter", "a"});
}

TEST_CASE("capture request: options") {
  auto options = with_command();
  options.dir = "../captures";
  options.launches_per_shape = "3";
  options.bytes = "1G";
  options.kernels = "*gemm*";
  const auto request = make_capture_request(options, cwd, root);
  REQUIRE(request);
  CHECK(request->dir == "/work/repo/captures");
  CHECK(request->launches_per_shape == 3);
  CHECK(request->byte_budget == std::uint64_t{1} << 30);
  CHECK(request->kernels == "*gemm*");
  options.dir = "/abs/dir";
  CHECK(make_capture_request(options, cwd, root)->dir == "/abs/dir");
}

TEST_CASE("capture request: mistakes are usage errors that show a valid form") {
  auto no_command = make_capture_request(CaptureOptions{}, cwd, root);
  REQUIRE_FALSE(no_command);
  CHECK(no_command.error().exit_code == ExitCode::usage);
  CHECK_THAT(no_command.error().message, Contains("after '--'"));
  for (const char* bad : {"0", "-1", "two", "3x", ""}) {
    auto options = with_command();
    options.launches_per_shape = bad;
    auto request = make_capture_request(options, cwd, root);
    REQUIRE_FALSE(request);
    CHECK_THAT(request.error().message, Contains("--launches-per-shape"));
  }
  auto options = with_command();
  options.bytes = "a lot";
  auto bytes = make_capture_request(options, cwd, root);
  REQUIRE_FALSE(bytes);
  CHECK_THAT(bytes.error().message, Contains("--bytes 'a lot' is not a byte count (e.g. 268435456, 512K, 256M, 2G)"));
  options = with_command();
  options.kernels = "";
  CHECK_FALSE(make_capture_request(options, cwd, root));
}

TEST_CASE("capture request: the environment the program gets") {
  auto options = with_command();
  options.launches_per_shape = "2";
  options.bytes = "64M";
  options.kernels = "*sum*";
  const auto request = make_capture_request(options, cwd, root);
  REQUIRE(request);
  const auto entries = capture_environment(*request, "/opt/kf/lib/libkforecast_capture.so", fixed_environment({}));
  const std::vector<EnvironmentEntry> expected = {{"CUDA_INJECTION64_PATH", "/opt/kf/lib/libkforecast_capture.so"},
                                                  {"KFORECAST_CAPTURE_DIR", "/work/repo/.kforecast/captures"},
                                                  {"KFORECAST_CAPTURE_LAUNCHES_PER_SHAPE", "2"},
                                                  {"KFORECAST_CAPTURE_BYTES", "67108864"},
                                                  {"KFORECAST_CAPTURE_KERNELS", "*sum*"},
                                                  {"CUDA_MODULE_LOADING", "EAGER"}};
  CHECK(entries == expected);
  SECTION("the user's module loading choice stands") {
    const auto kept = capture_environment(*request, "/lib.so", fixed_environment({{"CUDA_MODULE_LOADING", "LAZY"}}));
    CHECK(std::ranges::find(kept, EnvironmentEntry{"CUDA_MODULE_LOADING", "EAGER"}) == kept.end());
    CHECK(kept.size() == 5);
  }
}

TEST_CASE("capture request: the repository root is the nearest folder with .git") {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.path() / ".git");
  std::filesystem::create_directories(dir.path() / "a" / "b");
  CHECK(repository_root_above(dir.path() / "a" / "b") == dir.path());
}
