// SPDX-License-Identifier: Apache-2.0
// `kforecast train`'s data and summary on pairs written inline; the command itself runs in
// tests/cli/train_command_test.cpp. No compiler: the counts of NVRTC facts stay 0.
#include "embedded/training_set.hpp"

#include <sstream>

#include <catch2/catch.hpp>

#include "embedded/occupancy.hpp"

using namespace kforecast;
using namespace kforecast::embedded;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

// Three pairs: two families and one without; one launched on both sides; one whose candidate kernel is
// not in its source.
constexpr std::string_view dataset =
    R"({"family": "gemv", "reference": {"source": "__global__ void a(float* x) { x[0] = 1; }", "kernel": "a", "launch": {"grid": [128], "block": [256]}}, "candidate": {"source": "__global__ void b(float* x) { x[1] = 2; }", "kernel": "b", "launch": {"grid": [64], "block": [256]}}, "speedup": 2.0}
{"family": "softmax", "reference": {"source": "__global__ void a(float* x) { x[0] = 1; }", "kernel": "a"}, "candidate": {"source": "__global__ void b(float* x) { x[1] = 2; }", "kernel": "b"}, "speedup": 0.5}
{"reference": {"source": "__global__ void a(float* x) { x[0] = 1; }", "kernel": "a"}, "candidate": {"source": "int c;", "kernel": "missing"}, "speedup": 1.0}
)";

}  // namespace

TEST_CASE("embedded: a training set is one example per pair, with counts of what its features had") {
  const auto pairs = parse_labelled_pairs(dataset, "pairs.jsonl");
  REQUIRE(pairs);
  const auto set = training_set(*pairs, {.gpu = find_gpu("H100").value()}, "pairs.jsonl");
  REQUIRE(set);
  REQUIRE(set->examples.size() == 3);
  CHECK(set->examples[0].bin == forecast::bin_from_speedup(2.0).value());
  CHECK(set->examples[1].family == "softmax");
  CHECK(set->families == 2);  // the pair without a family is not a family
  CHECK(set->with_compiler_facts == 0);
  CHECK(set->with_launch == 1);
  CHECK(set->without_source == 1);

  SECTION("the summary says what was read and why NVRTC was not used") {
    TrainingReport report;
    report.folds = 3;
    std::ostringstream out;
    write_training_summary(out, {"pairs.jsonl", "H100", "sm_90", "--no-nvrtc"}, *set, report);
    CHECK_THAT(out.str(), StartsWith("kforecast train: 3 pairs from pairs.jsonl (2 families), H100 for sm_90\n"
                                     "  features: NVRTC facts for 0 pairs (NVRTC not used: --no-nvrtc), launch for 1, "
                                     "kernel not found in 1\n"));
    CHECK_THAT(out.str(), Contains("  out of fold (3 folds, by position): "));
  }
}
