// SPDX-License-Identifier: Apache-2.0
// `kforecast doctor` where NVRTC is not installed: it says so, and why. Skipped (exit 77) where
// NVRTC is installed; doctor_nvrtc_test.cpp is the other side.
#include <catch2/catch.hpp>

#include "e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::installed_nvrtc(); }

TEST_CASE("e2e: doctor reports NVRTC missing and the GPU, or why not, and still exits 0") {
  FixtureRepo repo;
  auto doctor = run_kforecast({"doctor"}, repo.path());
  CHECK(doctor.status == 0);
  CHECK_THAT(doctor.out, Contains("  nvrtc     not available: NVRTC not found"));
  // A machine without NVRTC may still have nvcc; either way the line says which, or where it looked.
  CHECK_THAT(doctor.out, Contains("\n  nvcc      "));
  const bool has_gpu_line = doctor.out.find("\n  gpu 0 ") != std::string::npos;
  const bool has_no_gpu_line = doctor.out.find("\n  gpu       none: ") != std::string::npos;
  CHECK(has_gpu_line != has_no_gpu_line);
  CHECK_THAT(doctor.out, Contains("  endpoint  not configured"));
}
