// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "embedded/feature_catalogue.hpp"

using namespace kforecast::embedded;

TEST_CASE("embedded: every feature has a unique name that finds it again") {
  std::set<std::string> names;
  for (const FeatureInfo& f : all_features()) {
    CHECK(names.insert(std::string(f.name)).second);
    REQUIRE(find_feature(f.name) != nullptr);
    CHECK(find_feature(f.name)->feature == f.feature);
    CHECK_FALSE(f.label.empty());
  }
  CHECK(names.size() == feature_count);
  CHECK(find_feature("no_such_feature") == nullptr);
  CHECK(info(Feature::occupancy).scale == Scale::linear);
  CHECK(info(Feature::spill_bytes).group == FeatureGroup::compiler);
  CHECK(group_name(FeatureGroup::launch) == "launch");
}
