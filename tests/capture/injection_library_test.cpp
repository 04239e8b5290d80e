// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <set>

#include "capture/injection_library.hpp"

using namespace kforecast;
using namespace kforecast::capture;
using Catch::Matchers::Contains;

namespace {
FileExists only(std::set<std::filesystem::path> files) {
  return [files = std::move(files)](const std::filesystem::path& path) { return files.contains(path); };
}
}  // namespace

TEST_CASE("capture injection library: beside the binary, then the install tree") {
  const std::filesystem::path binary = "/opt/kf/bin/kforecast";
  CHECK(find_injection_library(
            binary, fixed_environment({}),
            only({"/opt/kf/bin/libkforecast_capture.so", "/opt/kf/lib/kforecast/libkforecast_capture.so"}))
            .value() == "/opt/kf/bin/libkforecast_capture.so");
  CHECK(find_injection_library(binary, fixed_environment({}), only({"/opt/kf/lib/kforecast/libkforecast_capture.so"}))
            .value() == "/opt/kf/lib/kforecast/libkforecast_capture.so");
}

TEST_CASE("capture injection library: KFORECAST_CAPTURE_LIBRARY comes first and must exist") {
  const auto env = fixed_environment({{"KFORECAST_CAPTURE_LIBRARY", "/tmp/mine.so"}});
  CHECK(find_injection_library("/opt/kf/bin/kforecast", env,
                               only({"/tmp/mine.so", "/opt/kf/bin/libkforecast_capture.so"}))
            .value() == "/tmp/mine.so");
  const auto missing = find_injection_library("/opt/kf/bin/kforecast", env, only({}));
  REQUIRE_FALSE(missing);
  CHECK_THAT(missing.error().message, Contains("KFORECAST_CAPTURE_LIBRARY names /tmp/mine.so, which does not exist"));
}

TEST_CASE("capture injection library: missing, the error names where it looked and the fix") {
  const auto missing = find_injection_library("/opt/kf/bin/kforecast", fixed_environment({}), only({}));
  REQUIRE_FALSE(missing);
  CHECK(missing.error().exit_code == ExitCode::could_not_run);
  CHECK_THAT(missing.error().message, Contains("/opt/kf/bin/libkforecast_capture.so") &&
                                          Contains("/opt/kf/lib/kforecast") && Contains("--target kforecast_capture"));
}
