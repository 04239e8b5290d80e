// SPDX-License-Identifier: Apache-2.0
// `kforecast pr --forecaster llm` where NVRTC is not installed in its default places: the prompt says
// the compiler facts are not available. Skipped (exit 77) where NVRTC is installed;
// pr_llm_nvrtc_test.cpp is the other side.
#include <catch2/catch.hpp>

#include "llm_e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::installed_nvrtc(); }

TEST_CASE("e2e: without NVRTC, the prompt says compiler facts are not available") {
  const auto [run, requests, body] = pr_with_default_nvrtc();
  CHECK(run.status == 0);
  REQUIRE(requests == 1);
  CHECK_THAT(body, Contains("BEGIN REFERENCE COMPILER FACTS\\nnot available"));  // facts are optional
}
