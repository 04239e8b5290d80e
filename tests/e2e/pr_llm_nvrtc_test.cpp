// SPDX-License-Identifier: Apache-2.0
// `kforecast pr --forecaster llm` with NVRTC: the prompt carries compiler facts. Skipped (exit 77)
// where NVRTC is not installed; pr_llm_no_nvrtc_test.cpp is the other side.
#include <catch2/catch.hpp>

#include "llm_e2e.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvrtc(); }

TEST_CASE("e2e: with NVRTC, the prompt carries compiler facts for both versions") {
  const auto [run, requests, body] = pr_with_default_nvrtc();
  CHECK(run.status == 0);
  REQUIRE(requests == 1);
  CHECK_THAT(run.out, Contains("machine code differs"));
  CHECK_THAT(body, Contains("BEGIN REFERENCE COMPILER FACTS\\nfor sm_") && Contains("registers per thread") &&
                       Contains("global stores"));
}
