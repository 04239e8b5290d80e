// SPDX-License-Identifier: Apache-2.0
// `kforecast doctor`'s nvcc line: the toolkit found, its version and where it came from, with
// fake toolkits in CUDA_HOME and CUDA_PATH so the answer does not depend on this machine.
#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "support/fake_toolkit.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::e2e;
using Catch::Matchers::Contains;

TEST_CASE("e2e: doctor names the nvcc toolkit, its version and where it was found") {
  testing::TempDir temp;
  const auto home = testing::fake_toolkit(temp.path() / "cuda-home", "13.0.77").string();
  FixtureRepo repo;

  SECTION("CUDA_HOME's toolkit") {
    const auto doctor = run_kforecast({"doctor"}, repo.path(), {"CUDA_HOME=" + home});
    CHECK(doctor.status == 0);
    CHECK_THAT(doctor.out, Contains("\n  nvcc      13.0.77 at " + home + "/bin/nvcc, from CUDA_HOME=" + home + "\n"));
    // The compilers together: nvcc's line follows NVRTC's, before the driver's and the GPUs'.
    CHECK(doctor.out.find("\n  nvrtc ") < doctor.out.find("\n  nvcc "));
    CHECK(doctor.out.find("\n  nvcc ") < doctor.out.find("\n  gpu"));
  }
  SECTION("CUDA_PATH's where CUDA_HOME's nvcc fails") {
    const auto broken = testing::fake_toolkit(temp.path() / "broken", "").string();
    const auto doctor = run_kforecast({"doctor"}, repo.path(), {"CUDA_HOME=" + broken, "CUDA_PATH=" + home});
    CHECK(doctor.status == 0);
    CHECK_THAT(doctor.out, Contains("\n  nvcc      13.0.77 at " + home + "/bin/nvcc, from CUDA_PATH=" + home + "\n"));
  }
}
