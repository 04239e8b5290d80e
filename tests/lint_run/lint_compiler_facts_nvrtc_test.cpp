// SPDX-License-Identifier: Apache-2.0
// The lint's compiler facts from the real NVRTC: a kernel that spills and one that does not, and
// the cache that makes the second run compile nothing. Skipped (77) where NVRTC is missing.

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

#include "base/environment.hpp"
#include "base/subprocess.hpp"
#include "cuda/nvrtc.hpp"
#include "lint_run/lint_compiler_facts.hpp"
#include "support/cuda_requirements.hpp"
#include "support/fixture_repo.hpp"
#include "support/requirement.hpp"
#include "support/toolkit_environment.hpp"

using namespace kforecast;

std::optional<std::string> kforecast::testing::missing_requirement() { return kforecast::testing::missing_nvrtc(); }

namespace {
std::string fixture() {
  std::ifstream file(std::string(KF_SOURCE_DIR) + "/fixtures/lint/compiler/spills.cu");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}
}  // namespace

TEST_CASE("gate: lint compiler facts from NVRTC, cached") {
  auto compiler = kforecast::testing::load_test_nvrtc();
  REQUIRE(compiler.has_value());
  const auto cache = std::filesystem::temp_directory_path() / ("kf-lint-facts-" + std::to_string(::getpid()));
  std::filesystem::remove_all(cache);
  const std::vector<lint_run::FactsRequest> files{{"spills.cu", fixture(), {}, {}},
                                              {"broken.cu", "__global__ void k( {", {}, {}}};
  for (int run = 0; run < 2; ++run) {
    INFO("run " << run);
    const auto facts = lint_run::gather_compiler_facts(**compiler, files, "sm_90", cache, "");
    const auto& by_kernel = facts.by_path.at("spills.cu");
    REQUIRE(by_kernel.contains("spill"));
    REQUIRE(by_kernel.contains("ns::plain"));
    CHECK(by_kernel.at("spill").compiler->spill_bytes > 0);
    CHECK(by_kernel.at("spill").compiler->arch == "sm_90");
    CHECK(by_kernel.at("ns::plain").compiler->spill_bytes == 0);
    CHECK(by_kernel.at("ns::plain").compiler->registers > 0);
    REQUIRE(facts.not_compiled.size() == 1);
    CHECK(facts.not_compiled[0].starts_with("compiler facts unavailable for broken.cu: "));
  }
  CHECK(std::distance(std::filesystem::directory_iterator(cache), {}) >= 1);  // the spills.cu entry
  std::filesystem::remove_all(cache);
}

TEST_CASE("gate: kforecast lint --staged compiles the index's files with their local headers") {
  testing::FixtureRepo repo;
  repo.write("include/spill_count.cuh", "#pragma once\n#define COUNT 64\n");
  repo.write("README.md", "base\n");
  repo.commit("base");
  std::string source = fixture();
  const std::string marker = "float acc[64];";
  source.replace(source.find(marker), marker.size(), "float acc[COUNT];");
  repo.write("src/spills.cu", "#include \"../include/spill_count.cuh\"\n" + source);
  repo.git({"add", "src/spills.cu"});
  const auto cache = repo.path() / ".git/cache";
  std::vector<std::string> argv{"env", "-i", "PATH=/usr/bin:/bin", "HOME=/tmp", "XDG_CACHE_HOME=" + cache.string()};
  for (auto& variable : testing::toolkit_environment()) argv.push_back(std::move(variable));
  argv.insert(argv.end(), {KF_BINARY, "lint", "--staged", "--format", "json"});
  auto run = run_process(argv, {.working_directory = repo.path().string()});
  REQUIRE(run.has_value());
  INFO(run->out << run->err);
  CHECK(run->exit_status == 0);
  CHECK(run->out.find("compiler facts for sm_90 from NVRTC") != std::string::npos);
  CHECK(run->out.find("not compiled") == std::string::npos);
  CHECK(run->out.find("\"rule\": \"register-spills\"") != std::string::npos);
}

TEST_CASE("gate: lint compiler facts for --staged compile only the kernels with added lines") {
  auto compiler = kforecast::testing::load_test_nvrtc();
  REQUIRE(compiler.has_value());
  const std::string text = fixture();
  // The line of each kernel's declaration, from the fixture itself.
  const auto line_of = [&](std::string_view needle) {
    const auto at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n') +
                                      1);
  };
  const std::vector<std::uint32_t> spill_only{line_of("spill(const")};
  const std::vector<std::uint32_t> none{};
  const std::vector<lint_run::FactsRequest> files{{"spills.cu", text, {}, {}, &spill_only},
                                              {"untouched.cu", text, {}, {}, &none}};
  const auto facts = lint_run::gather_compiler_facts(**compiler, files, "sm_90", std::nullopt, "");
  CHECK(facts.not_compiled.empty());
  const auto& spills = facts.by_path.at("spills.cu");
  REQUIRE(spills.contains("spill"));
  CHECK(spills.at("spill").compiler->spill_bytes > 0);  // the same facts as a whole-file compile
  CHECK(!spills.contains("ns::plain"));                 // compiled with an empty body: no facts of its own
  CHECK(facts.by_path.at("untouched.cu").empty());      // no kernel touched: not compiled at all
}
