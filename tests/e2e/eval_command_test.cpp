// SPDX-License-Identifier: Apache-2.0
// `kforecast eval` as a user runs it: the real binary on the labelled-pairs fixtures, with NVRTC
// where this machine has it (the tests hold either way).

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "e2e.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast::e2e;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using kforecast::testing::TempDir;

namespace {

const std::filesystem::path fixtures = std::filesystem::path(KF_SOURCE_DIR) / "fixtures" / "fuzz" / "labelled_pairs";

}  // namespace

TEST_CASE("e2e: eval scores every pair of a dataset and writes its predictions and plots") {
  TempDir dir;
  const std::string dataset = (fixtures / "two_rows.jsonl").string();
  auto run =
      run_kforecast({"eval", dataset, "--format", "json", "--predictions", "p.jsonl", "--plots", "plots"}, dir.path());
  INFO(run.err);
  CHECK(run.status == 0);
  CHECK_THAT(run.out, StartsWith("{\n  \"kforecast\": ") && Contains("\"n\": 2,") && Contains("\"cv\": \"none\"") &&
                          Contains("\"training_prior\": {\"accuracy\": ") && Contains("\"always_bin_5\": {"));
  std::ifstream predictions(dir.path() / "p.jsonl");
  std::size_t lines = 0;
  for (std::string line; std::getline(predictions, line);) {
    CHECK_THAT(line, StartsWith("{\"id\": ") && Contains("\"probabilities\": [") && Contains("\"decision\": "));
    ++lines;
  }
  CHECK(lines == 2);
  CHECK(std::filesystem::is_regular_file(dir.path() / "plots" / "reliability.svg"));
  CHECK(std::filesystem::is_regular_file(dir.path() / "plots" / "risk_coverage.svg"));
}

TEST_CASE("e2e: eval stops at a malformed line, naming the file and the line, exit 2") {
  const std::string dataset = (fixtures / "bad_line.jsonl").string();
  auto run = run_kforecast({"eval", dataset});
  CHECK(run.status == 2);
  CHECK(run.out.empty());
  CHECK_THAT(run.err, StartsWith("kforecast: error: " + dataset + ":1: \"speedup\" must be a positive number"));
}
