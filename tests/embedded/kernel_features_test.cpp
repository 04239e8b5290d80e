// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <cmath>

#include "embedded/corpus_source.hpp"
#include "embedded/kernel_features.hpp"

using namespace kforecast::embedded;
using kforecast::embedded::testing::corpus_source;

namespace {

const Gpu h100 = *find_gpu("H100");

CompilerFacts facts(int registers, std::int64_t spills, double loads_128) {
  CompilerFacts f;
  f.resources.name = "k";
  f.resources.registers = registers;
  f.resources.spill_store_bytes = spills;
  f.mix.found = true;
  f.mix.instructions = 100;
  f.mix.global_loads = 4;
  f.mix.global_loads_128 = loads_128;
  return f;
}

}  // namespace

TEST_CASE("embedded: feature groups are present only where their facts are") {
  const auto source = extract_source_features(corpus_source("gemv", "warp_per_row"), "gemv_warp_per_row");
  const FeatureVector only_source = kernel_features(source, std::nullopt, std::nullopt, h100);
  CHECK(only_source.has(FeatureGroup::source));
  CHECK_FALSE(only_source.has(FeatureGroup::compiler));
  CHECK_FALSE(only_source.has(FeatureGroup::launch));
  CHECK(only_source[Feature::registers] == 0);
  CHECK(only_source[Feature::warp_shuffles] == 1);

  const FeatureVector all =
      kernel_features(source, facts(32, 0, 0), LaunchGeometry{{1024, 1, 1}, {256, 1, 1}, 0}, h100);
  CHECK(all.has(FeatureGroup::compiler));
  CHECK(all.has(FeatureGroup::launch));
  CHECK(all[Feature::block_threads] == 256);
  CHECK(all[Feature::grid_blocks] == 1024);
  CHECK(all[Feature::occupancy] == Approx(1.0));
  CHECK(all[Feature::waves] == Approx(1024.0 / (8 * 132)));
}

TEST_CASE("embedded: occupancy follows the registers the compiler reports") {
  const SourceFeatures source{.kernel_found = true};
  const LaunchGeometry launch{{264, 1, 1}, {256, 1, 1}, 0};
  const auto low = kernel_features(source, facts(128, 0, 0), launch, h100);
  CHECK(low[Feature::occupancy] == Approx(0.25));
  CHECK(low[Feature::waves] == Approx(1.0));
  const auto no_compiler = kernel_features(source, std::nullopt, launch, h100);
  CHECK(no_compiler[Feature::occupancy] == Approx(1.0));  // registers unknown: not a limit
}

TEST_CASE("embedded: feature differences are log ratios of counts, linear for fractions") {
  const SourceFeatures source{.kernel_found = true};
  const LaunchGeometry launch{{264, 1, 1}, {256, 1, 1}, 0};
  const auto reference = kernel_features(source, facts(128, 0, 0), launch, h100);
  const auto candidate = kernel_features(source, facts(32, 96, 3), launch, h100);
  const FeatureDelta delta = feature_delta(reference, candidate);
  CHECK(delta.has(FeatureGroup::compiler));
  CHECK(delta[Feature::registers] == Approx(std::log2(33.0 / 129.0)));
  CHECK(delta[Feature::spill_bytes] == Approx(std::log2(97.0)));
  CHECK(delta[Feature::global_loads_128] == Approx(2.0));
  CHECK(delta[Feature::occupancy] == Approx(0.75));
  CHECK(delta[Feature::global_loads] == 0);

  // Without compiler facts on one side, the compiler group is missing and its differences 0.
  const auto bare = kernel_features(source, std::nullopt, launch, h100);
  const FeatureDelta partial = feature_delta(reference, bare);
  CHECK_FALSE(partial.has(FeatureGroup::compiler));
  CHECK(partial[Feature::registers] == 0);
  CHECK(partial.has(FeatureGroup::launch));
}
