// SPDX-License-Identifier: Apache-2.0
// Every kernel of fixtures/corpus compiles with the real NVRTC for sm_90, through kforecast's own
// loader, and ptxas reports it. Skipped (exit 77) where NVRTC cannot be loaded.

#include <catch2/catch.hpp>

#include "corpus/corpus.hpp"
#include "cuda/nvrtc.hpp"
#include "support/cuda_requirements.hpp"
#include "support/requirement.hpp"

using namespace kforecast;

std::optional<std::string> kforecast::testing::missing_requirement() { return missing_nvrtc(); }

TEST_CASE("corpus: every kernel compiles for sm_90 with NVRTC, without warnings") {
  const auto compiler = kforecast::testing::load_test_nvrtc();
  REQUIRE(compiler.has_value());
  const auto corpus = testing::load_corpus();
  REQUIRE(corpus.size() >= 91);  // the README's 91 kernels: none left out of its spec
  for (const auto& k : corpus) {
    INFO(k.family << "/" << k.file << ": " << k.name);
    auto output = (*compiler)->compile({.source = k.source, .file_name = k.file, .arch = "sm_90"});
    if (!output) FAIL(output.error().message);
    CHECK_FALSE(output->cubin.empty());
    CHECK(output->log.find("warning") == std::string::npos);
    const auto* resources = cuda::find_function(output->functions, k.name);
    REQUIRE(resources != nullptr);
    CHECK(resources->kind == cuda::FunctionKind::kernel);
    CHECK(resources->registers > 0);
    CHECK(output->ptx.find(".entry " + k.name) != std::string::npos);
  }
}
