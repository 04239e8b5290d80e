// SPDX-License-Identifier: Apache-2.0
// main() for test executables that need something this machine may lack (NVRTC, a GPU). Catch2 v2
// cannot skip, so the executable checks first and exits 77, which CTest reports as skipped
// (SKIP_RETURN_CODE), never as passed.

#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include "support/requirement.hpp"

int main(int argc, char** argv) {
  if (auto missing = kforecast::testing::missing_requirement()) {
    std::printf("SKIPPED: %s\n", missing->c_str());
    return kforecast::testing::skip_exit_code;
  }
  return Catch::Session().run(argc, argv);
}
