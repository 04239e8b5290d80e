// SPDX-License-Identifier: Apache-2.0
// `kforecast doctor` where NVRTC is installed: it names NVRTC's version. Skipped (exit 77) where
// NVRTC is not installed; doctor_no_nvrtc_test.cpp is the other side.
#include <fmt/format.h>
#include <catch2/catch.hpp>

#include "base/environment.hpp"
#include "cuda/nvrtc.hpp"
#include "e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;
using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return testing::missing_nvrtc(); }

TEST_CASE("e2e: doctor reports NVRTC and the GPU, or why not, and still exits 0") {
  FixtureRepo repo;
  auto doctor = run_kforecast({"doctor"}, repo.path());
  CHECK(doctor.status == 0);
  // The version kforecast finds, as this test finds it (13 where CUDA 13 is installed).
  const auto nvrtc = kforecast::testing::load_test_nvrtc();
  REQUIRE(nvrtc);
  CHECK_THAT(doctor.out, Contains(fmt::format("  nvrtc     {}.", (*nvrtc)->version().major)));
  const bool has_gpu_line = doctor.out.find("\n  gpu 0 ") != std::string::npos;
  const bool has_no_gpu_line = doctor.out.find("\n  gpu       none: ") != std::string::npos;
  CHECK(has_gpu_line != has_no_gpu_line);
  CHECK_THAT(doctor.out, Contains("  endpoint  not configured"));
}
