// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "embedded/rationale.hpp"

using namespace kforecast::embedded;

namespace {

FeatureVector kernel(double loads_128, double spills, double occupancy, double branches) {
  FeatureVector v;
  v.source = v.compiler = v.launch = true;
  v.values[index(Feature::global_loads_128)] = loads_128;
  v.values[index(Feature::spill_bytes)] = spills;
  v.values[index(Feature::occupancy)] = occupancy;
  v.values[index(Feature::branches)] = branches;
  return v;
}

}  // namespace

TEST_CASE("embedded: a trained model's rationale names the features that moved the forecast") {
  OrdinalModel model;
  model.status = ModelStatus::trained;
  model.weights[index(Feature::global_loads_128)] = 0.8;
  model.weights[index(Feature::spill_bytes)] = -0.3;
  model.weights[index(Feature::occupancy)] = 1.0;
  const auto text = rationale(model, kernel(0, 0, 0.5, 3), kernel(2, 96, 1.0, 4));
  CHECK(text ==
        "spills (bytes) 0 -> 96 (slower); 128-bit global loads 0 -> 2 (faster); occupancy 50% -> 100% (faster)");
}

TEST_CASE("embedded: an untrained prior's rationale says so and lists the largest changes") {
  OrdinalModel prior;
  prior.status = ModelStatus::prior;
  const auto text = rationale(prior, kernel(0, 0, 0.5, 3), kernel(2, 96, 1.0, 3));
  CHECK(
      text.starts_with("embedded model untrained (no measured pairs yet): the forecast is a wide prior; "
                       "largest changes: spills (bytes) 0 -> 96; 128-bit global loads 0 -> 2"));
}

TEST_CASE("embedded: the rationale says what was not known") {
  FeatureVector bare;
  bare.source = true;
  const auto text = rationale(default_model(), bare, bare);
  CHECK(text.find("no feature changed") != std::string::npos);
  CHECK(text.find("no NVRTC facts") != std::string::npos);
  CHECK(text.find("no launch spec") != std::string::npos);
}
