// SPDX-License-Identifier: Apache-2.0
// Training on small synthetic labelled data where the right answer is known. These are not
// measurements: they test the fitting, not the forecaster's quality.

#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "embedded/training.hpp"

using namespace kforecast;
using namespace kforecast::embedded;

namespace {

// Each example's bin is a function of one feature's difference (`signal`), with `noise` of the
// bins replaced by random ones; a second feature is pure noise.
std::vector<TrainingExample> synthetic(std::size_t n, double noise, unsigned seed, int families) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> any_bin(1, 8);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<TrainingExample> examples;
  for (std::size_t i = 0; i < n; ++i) {
    TrainingExample e;
    e.delta.source = e.delta.compiler = e.delta.launch = true;
    const int bin = any_bin(rng);
    e.delta.values[index(Feature::global_loads_128)] = (bin - 4.5) * 1.0 + 0.1 * normal(rng);
    e.delta.values[index(Feature::branches)] = normal(rng);
    e.bin = *forecast::bin_from_number(unit(rng) < noise ? any_bin(rng) : bin);
    e.family = families > 0 ? "family" + std::to_string(i % families) : "";
    examples.push_back(e);
  }
  return examples;
}

}  // namespace

TEST_CASE("embedded: a feature that predicts the bin is learned, out of fold") {
  const auto examples = synthetic(240, 0.0, 1, 6);
  const auto report = train_model(examples, {.iterations = 1500});
  REQUIRE(report.has_value());
  CHECK(report->by_family);
  CHECK(report->folds == 6);
  CHECK(report->out_of_fold_accuracy > 0.9);
  CHECK(report->out_of_fold_nll < 0.5 * report->prior_nll);
  const OrdinalModel& model = report->model;
  CHECK(model.status == ModelStatus::trained);
  CHECK(model.training_pairs == 240);
  CHECK(model.weights[index(Feature::global_loads_128)] > 1.0);
  CHECK(std::abs(model.weights[index(Feature::branches)]) < 0.2 * model.weights[index(Feature::global_loads_128)]);
  // The fitted model forecasts a new pair from the signal alone.
  FeatureDelta fast;
  fast.source = fast.compiler = fast.launch = true;
  fast.values[index(Feature::global_loads_128)] = 2.5;  // bin 7
  CHECK(predict(model, fast).predicted_bin() == forecast::SpeedupBin::high_speedup);
}

TEST_CASE("embedded: without signal the model learns the class frequencies") {
  std::vector<TrainingExample> examples;
  for (int i = 0; i < 100; ++i) {
    TrainingExample e;
    e.delta.source = e.delta.compiler = e.delta.launch = true;
    e.bin = i < 70 ? forecast::SpeedupBin::minor_speedup : forecast::SpeedupBin::significant_slowdown;
    examples.push_back(e);
  }
  const OrdinalModel model = fit_ordinal(examples, {.iterations = 3000});
  const auto d = predict(model, examples[0].delta);
  CHECK(d.probability(forecast::SpeedupBin::minor_speedup) == Approx(0.7).margin(0.03));
  CHECK(d.probability(forecast::SpeedupBin::significant_slowdown) == Approx(0.3).margin(0.03));
}

TEST_CASE("embedded: temperature is fitted out of fold and never worsens the out-of-fold likelihood") {
  const auto noisy = synthetic(200, 0.5, 7, 0);
  const auto report = train_model(noisy, {.iterations = 800, .folds = 5});
  REQUIRE(report.has_value());
  CHECK_FALSE(report->by_family);
  CHECK(report->folds == 5);
  CHECK(report->out_of_fold_nll <= report->out_of_fold_nll_uncalibrated + 1e-9);
  CHECK(std::isfinite(report->model.temperature));
  CHECK(report->model.temperature > 0.05);
  CHECK(report->model.temperature <= 5.0);
  // Half the labels are random: the fitted model must not be sure of itself.
  FeatureDelta d;
  d.source = d.compiler = d.launch = true;
  d.values[index(Feature::global_loads_128)] = 0.5;
  CHECK(predict(report->model, d).max_probability() < 0.8);
}

TEST_CASE("embedded: training is deterministic and refuses too little data") {
  const auto examples = synthetic(60, 0.2, 3, 3);
  const auto a = train_model(examples, {.iterations = 300});
  const auto b = train_model(examples, {.iterations = 300});
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  CHECK(a->model.weights == b->model.weights);
  CHECK(a->model.temperature == b->model.temperature);
  CHECK_FALSE(train_model(std::span<const TrainingExample>(examples.data(), 1)).has_value());
}

TEST_CASE("embedded: a weight whose sign GPUs settle stays on its side, however the data pulls") {
  // The same synthetic signal, put on features with a settled direction: on one that may only
  // slow a kernel (est_time) with a sign that says "more is faster", and on one that may only
  // speed it up (global_access_bits) with the sign it allows.
  auto examples = synthetic(300, 0.1, 9, 0);
  for (auto& e : examples) {
    const double signal = e.delta.values[index(Feature::global_loads_128)];
    e.delta.values[index(Feature::global_loads_128)] = 0;
    e.delta.values[index(Feature::est_time)] = signal;
    e.delta.values[index(Feature::global_access_bits)] = signal;
  }
  const OrdinalModel model = fit_ordinal(examples, {});
  CHECK(info(Feature::est_time).direction == Direction::slower);
  CHECK(model.weights[index(Feature::est_time)] == 0);           // held at zero, not positive
  CHECK(model.weights[index(Feature::global_access_bits)] > 1);  // free to follow the data
  // Without the allowed feature the constrained one still cannot turn: the fit gives up the signal.
  for (auto& e : examples) e.delta.values[index(Feature::global_access_bits)] = 0;
  CHECK(fit_ordinal(examples, {}).weights[index(Feature::est_time)] == 0);
}
