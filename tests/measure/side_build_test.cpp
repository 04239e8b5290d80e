// SPDX-License-Identifier: Apache-2.0
// The builds a decision's measuring processes share: kept whole or not at all, and a side found
// kept is loaded with the notes that say how it was built, not compiled again.
#include "measure/side_build.hpp"

#include <filesystem>
#include <fstream>

#include <catch2/catch.hpp>

#include "base/scratch_folder.hpp"

using namespace kforecast;

namespace {

std::vector<std::byte> bytes(std::string_view text) {
  std::vector<std::byte> out;
  for (const char c : text) out.push_back(static_cast<std::byte>(c));
  return out;
}

}  // namespace

TEST_CASE("side build: a kept build reads back whole, and a half-kept one not at all") {
  const ScratchFolder folder("kforecast-side-build");
  const measure::KeptBuild build{bytes("\x7f" "ELF cubin"), "_Z4copyPf", {"the reference was built by nvcc 13.0"}};
  measure::keep_build(folder.path(), "reference-1", build);
  auto read = measure::read_kept_build(folder.path(), "reference-1");
  REQUIRE(read.has_value());
  CHECK(read->cubin == build.cubin);
  CHECK(read->lowered_name == build.lowered_name);
  CHECK(read->notes == build.notes);
  CHECK_FALSE(measure::read_kept_build(folder.path(), "candidate-1"));
  CHECK_FALSE(measure::read_kept_build("", "reference-1"));  // no folder: nothing kept
  std::filesystem::remove(std::filesystem::path(folder.path()) / "reference-1.cubin");
  CHECK_FALSE(measure::read_kept_build(folder.path(), "reference-1"));
  std::ofstream(std::filesystem::path(folder.path()) / "empty.build") << "\n";
  std::ofstream(std::filesystem::path(folder.path()) / "empty.cubin") << "x";
  CHECK_FALSE(measure::read_kept_build(folder.path(), "empty"));  // no lowered name
}

TEST_CASE("side build: each side of a pair has its own key, and a kept side is loaded, not compiled") {
  const measure::BenchPair pair{"head/a.cu:k", "base/a.cu:k", "", "", ""};
  const measure::BenchPair other{"head/b.cu:k", "base/b.cu:k", "", "", ""};
  CHECK(measure::side_build_key(pair, "reference") != measure::side_build_key(pair, "candidate"));
  CHECK(measure::side_build_key(pair, "reference") != measure::side_build_key(other, "reference"));
  CHECK(measure::side_build_key(pair, "reference") == measure::side_build_key(pair, "reference"));

  const ScratchFolder folder("kforecast-side-build");
  measure::keep_build(folder.path(), measure::side_build_key(pair, "candidate"),
                      {bytes("cubin"), "_Z1kPf", {"the candidate was built by nvcc 13.0"}});
  measure::PreparedPair prepared;
  prepared.candidate.label = "head/a.cu:k";
  // No compiler at all: only a kept build can answer.
  const measure::SideBuildRequest request{nullptr, nullptr, std::nullopt, &prepared, pair, "sm_90", folder.path(), false};
  const auto side = measure::build_side(request);
  REQUIRE(side.kernel.has_value());
  CHECK(side.kernel->lowered_name == "_Z1kPf");
  CHECK(side.kernel->label == "candidate head/a.cu:k");
  CHECK(side.notes == std::vector<std::string>{"the candidate was built by nvcc 13.0"});
}
