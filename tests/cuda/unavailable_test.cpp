// SPDX-License-Identifier: Apache-2.0
#include "cuda/unavailable.hpp"

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::cuda;

TEST_CASE("cuda: Unavailable") {
  Unavailable missing{"NVRTC not found",
                      "compiler facts and benchmarks unavailable",
                      "install the CUDA toolkit's NVRTC or set cuda.nvrtc_library / KFORECAST_NVRTC_LIBRARY",
                      {}};
  SECTION("says what is missing, what that costs and what to do") {
    CHECK(missing.message() ==
          "NVRTC not found: compiler facts and benchmarks unavailable; install the CUDA toolkit's NVRTC or set "
          "cuda.nvrtc_library / KFORECAST_NVRTC_LIBRARY");
  }
  SECTION("names the first paths tried and counts the rest") {
    for (int i = 0; i < 6; ++i) missing.tried.push_back({"/p" + std::to_string(i), "not found"});
    const auto message = missing.message();
    CHECK(message.starts_with("NVRTC not found (tried /p0, /p1, /p2, /p3 and 2 more): compiler facts"));
    CHECK(missing.details() ==
          "/p0: not found\n/p1: not found\n/p2: not found\n/p3: not found\n/p4: not found\n/p5: not found\n");
  }
  SECTION("becomes an Error with the exit code asked for") {
    const Error error = missing.to_error();
    CHECK(error.message == missing.message());
    CHECK(error.exit_code == ExitCode::could_not_run);
    CHECK(missing.to_error(ExitCode::usage).exit_code == ExitCode::usage);
  }
}
