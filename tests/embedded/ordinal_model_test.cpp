// SPDX-License-Identifier: Apache-2.0
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "embedded/ordinal_model.hpp"

using namespace kforecast;
using namespace kforecast::embedded;

namespace {

FeatureDelta all_groups() {
  FeatureDelta d;
  d.source = d.compiler = d.launch = true;
  return d;
}

// The rows of the measured corpus's dataset, which the compiled-in model must have been trained on.
std::size_t corpus_pairs() {
  std::ifstream in(std::filesystem::path(KF_SOURCE_DIR) / "fixtures" / "corpus" / "dataset.jsonl");
  std::size_t rows = 0;
  for (std::string line; std::getline(in, line);) rows += line.find_first_not_of(" \t\r") != std::string::npos;
  return rows;
}

std::string error_of(std::string_view text) {
  auto model = parse_model(text, "model.txt");
  REQUIRE_FALSE(model.has_value());
  return model.error().message;
}

constexpr const char* thresholds =
    "threshold 1 -3\nthreshold 2 -2\nthreshold 3 -1\nthreshold 4 0\n"
    "threshold 5 1\nthreshold 6 2\nthreshold 7 3\n";

}  // namespace

TEST_CASE("embedded: the compiled-in model is the one trained on the measured corpus") {
  const OrdinalModel& model = default_model();
  CHECK(model.status == ModelStatus::trained);
  // All of the dataset's pairs (462 since the spmv, column_reduction and segmented_sort families
  // were measured): a corpus that grows without a retrain fails here, not silently.
  CHECK(model.training_pairs == corpus_pairs());
  CHECK(model.training_pairs >= 462);
  CHECK(model.temperature > 1);  // fitted out of fold: the raw fit was over-confident
  CHECK(std::ranges::count_if(model.weights, [](double w) { return w != 0; }) >= 10);
  // The dataset holds every pair both ways, so "nothing changed" sits between the two middle
  // bins: as likely slower as faster, and sure of neither.
  const auto d = predict(model, all_groups());
  CHECK(d.p_regression(0.0) == Approx(0.5).margin(0.02));
  CHECK(d.max_probability() < 0.5);
  const int predicted = forecast::bin_number(d.predicted_bin());
  CHECK((predicted == 4 || predicted == 5));
}

TEST_CASE("embedded: the score moves the distribution, and missing groups flatten it") {
  OrdinalModel model =
      *parse_model(std::string("format 1\nmissing_group_mix 0.5\nweight registers -1\n") + thresholds, "m");
  FeatureDelta delta = all_groups();
  delta.values[index(Feature::registers)] = 3;  // 8x the registers: pulls towards slower
  CHECK(score(model, delta) == -3);
  const auto slower = predict(model, delta);
  CHECK(forecast::bin_number(slower.predicted_bin()) <= 2);
  const auto unchanged = predict(model, all_groups());
  CHECK(slower.p_regression(0) > unchanged.p_regression(0));
  FeatureDelta partial = all_groups();
  partial.compiler = false;
  CHECK(predict(model, partial).max_probability() < unchanged.max_probability());
  // Knowing nothing at all flattens towards uniform; it never moves mass to the extreme bins.
  FeatureDelta none;
  const auto blind = predict(model, none);
  CHECK(blind.max_probability() < predict(model, partial).max_probability());
  CHECK(blind.probability(forecast::SpeedupBin::severe_slowdown) <
        blind.probability(forecast::SpeedupBin::minor_slowdown));
}

TEST_CASE("embedded: model files round-trip through render and parse") {
  OrdinalModel model =
      *parse_model(std::string("format 1\nstatus trained\ntraining_pairs 42\ntemperature 1.7\n"
                               "note fitted on the corpus\nweight occupancy 0.75\nweight spill_bytes -0.5\n") +
                       thresholds,
                   "m");
  const auto again = parse_model(render_model(model), "rendered");
  REQUIRE(again.has_value());
  CHECK(again->status == ModelStatus::trained);
  CHECK(again->training_pairs == 42);
  CHECK(again->temperature == Approx(1.7));
  CHECK(again->note == "fitted on the corpus");
  CHECK(again->weights == model.weights);
  CHECK(again->thresholds == model.thresholds);
}

TEST_CASE("embedded: bad model files are errors that name the file, line and fix") {
  CHECK(error_of("") == "model.txt:0: no 'format 1' line: not a kforecast model file");
  CHECK(error_of("format 2\n") == "model.txt:1: unsupported format '2' (this kforecast reads format 1)");
  CHECK(error_of("format 1\nweight no_such 1\n") == "model.txt:2: unknown feature 'no_such'");
  CHECK(error_of("format 1\nweight registers nan\n") == "model.txt:2: weight registers needs a finite number");
  CHECK(error_of("format 1\nbogus 1\n") == "model.txt:2: unknown key 'bogus'");
  CHECK(error_of("format 1\ntemperature 0\n") == "model.txt:2: temperature must be in (0, 1000]");
  CHECK(error_of("format 1\nthreshold 9 1\n") == "model.txt:2: threshold index must be 1..7");
  CHECK(error_of("format 1\nthreshold 1 0\n") == "model.txt:0: threshold 2 is missing (all seven are needed)");
  CHECK(error_of("format 1\nthreshold 1 -3\nthreshold 2 -4\nthreshold 3 -1\nthreshold 4 0\nthreshold 5 1\n"
                 "threshold 6 2\nthreshold 7 3\n") ==
        "model.txt:0: thresholds must increase: threshold 2 <= threshold 1");
  CHECK(error_of("format 1\nmissing_group_mix 1\n") == "model.txt:2: missing_group_mix needs a number in [0, 1)");
  CHECK(error_of("format 1\nstatus maybe\n") == "model.txt:2: status must be 'prior' or 'trained', not 'maybe'");
}
