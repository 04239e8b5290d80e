// SPDX-License-Identifier: Apache-2.0
// Facts about the shipped binary itself: what it links, and that it starts on a bare machine.

#include <catch2/catch.hpp>

#include "e2e.hpp"

using namespace kforecast;

#ifdef KF_SANITIZED
constexpr bool sanitizer_build = true;
#else
constexpr bool sanitizer_build = false;
#endif
using Catch::Matchers::Contains;

TEST_CASE("e2e: the binary has no link-time dependency on CUDA or the C++ runtime") {
  auto ldd = run_process({"ldd", KF_BINARY});
  REQUIRE(ldd.has_value());
  REQUIRE(ldd->exit_status == 0);
  INFO(ldd->out);
  CHECK_THAT(ldd->out, !Contains("libcuda"));
  CHECK_THAT(ldd->out, !Contains("libnvrtc"));
  CHECK_THAT(ldd->out, !Contains("libcudart"));
  if (!sanitizer_build) {  // the ASan and UBSan runtimes link libstdc++ dynamically themselves
    CHECK_THAT(ldd->out, !Contains("libstdc++"));
    CHECK_THAT(ldd->out, !Contains("libgcc_s"));
  }
  CHECK_THAT(ldd->out, !Contains("not found"));
}
