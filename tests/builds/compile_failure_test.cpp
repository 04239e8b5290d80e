// SPDX-License-Identifier: Apache-2.0
// Which compile failures are the change's and which are kforecast's missing context, on logs in
// the shapes NVRTC writes them.
#include "builds/compile_failure.hpp"

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::builds;

TEST_CASE("compile failure: a header the compiler cannot open is missing context") {
  const auto missing = missing_context(
      "k.cu does not compile for compute_90:\n/usr/local/cuda/include/cublas_api.h(68): catastrophic error: cannot "
      "open source file \"stdint.h\"\n  #include <stdint.h>\n\n1 catastrophic error detected");
  REQUIRE(missing);
  CHECK(*missing == "cannot open \"stdint.h\"");
}

TEST_CASE("compile failure: an error inside a toolkit or system header is missing context") {
  const auto missing = missing_context("/usr/local/cuda/include/cooperative_groups/details/info.h(167): error: "
                                       "namespace \"cuda::std\" has no member \"true_type\"");
  REQUIRE(missing);
  CHECK(*missing == "an error inside /usr/local/cuda/include/cooperative_groups/details/info.h");
}

TEST_CASE("compile failure: an error in the project's own code is the change's") {
  CHECK_FALSE(missing_context("k.cu does not compile for compute_90:\nsrc/k.cu(12): error: identifier \"z\" is "
                              "undefined\n/usr/local/cuda/include/x.h(1): error: later errors do not decide"));
  CHECK_FALSE(missing_context("include/common.h(3): error: expected a \";\""));
}

TEST_CASE("compile failure: the first error decides, and a log without one names nothing") {
  CHECK(first_error("k.cu does not compile:\nk.cu(3): warning: unused\nk.cu(4): error: bad\nk.cu(5): error: worse") ==
        "k.cu(4): error: bad");
  CHECK(first_error("").empty());
  CHECK(first_error("no errors\nat all").empty());
  CHECK_FALSE(missing_context("cannot open source file \"x.h\" appears here outside an error line"));
  CHECK_FALSE(missing_context(std::string_view("\0\0\n\0", 4)));
}

TEST_CASE("compile failure: nvcc's host compiler not finding a header is missing context naming it") {
  const auto missing = missing_context(
      "src/k.cu:1:10: fatal error: cutlass/cutlass.h: No such file or directory\n    1 | #include "
      "<cutlass/cutlass.h>\n      |          ^~~~~~~~~~~~~~~~~~~\ncompilation terminated.\n");
  REQUIRE(missing);
  CHECK(*missing == "missing <cutlass/cutlass.h>");
  CHECK(first_error("src/k.cu:1:10: fatal error: a.h: No such file or directory\n") ==
        "src/k.cu:1:10: fatal error: a.h: No such file or directory");
  // A fatal error of another kind in the project's own code is the change's.
  CHECK_FALSE(missing_context("src/k.cu:3:2: fatal error: #error this configuration is not supported\n"));
}

TEST_CASE("compile failure: nvcc's front end errors in project code are the change's") {
  CHECK_FALSE(missing_context("src/k.cu(1): error: expected an expression\n  int x = ;\n\n1 error detected in the "
                              "compilation of \"src/k.cu\".\n"));
}
