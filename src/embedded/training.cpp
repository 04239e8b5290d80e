// SPDX-License-Identifier: Apache-2.0
#include "embedded/training.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace kforecast::embedded {
namespace {

constexpr std::size_t thresholds_count = forecast::bin_count - 1;

double sigmoid(double x) { return x >= 0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x)); }

// Parameters as the optimiser sees them: weights, the first threshold, and log gaps between
// consecutive thresholds (so they stay increasing without constraints).
struct Parameters {
  std::array<double, feature_count> weights{};
  double first = 0;
  std::array<double, thresholds_count - 1> log_gaps{};

  std::array<double, thresholds_count> thresholds() const {
    std::array<double, thresholds_count> t{};
    t[0] = first;
    for (std::size_t k = 1; k < thresholds_count; ++k) t[k] = t[k - 1] + std::exp(log_gaps[k - 1]);
    return t;
  }
};

constexpr std::size_t parameter_count = feature_count + 1 + (thresholds_count - 1);

std::array<double, parameter_count> flatten(const Parameters& p) {
  std::array<double, parameter_count> x{};
  std::copy(p.weights.begin(), p.weights.end(), x.begin());
  x[feature_count] = p.first;
  std::copy(p.log_gaps.begin(), p.log_gaps.end(), x.begin() + feature_count + 1);
  return x;
}

Parameters unflatten(const std::array<double, parameter_count>& x) {
  Parameters p;
  std::copy(x.begin(), x.begin() + feature_count, p.weights.begin());
  p.first = x[feature_count];
  std::copy(x.begin() + feature_count + 1, x.end(), p.log_gaps.begin());
  return p;
}

// The log-likelihood gradient of one example: d/dz and d/dtheta_k of log P(bin = y).
struct ExampleGradient {
  double nll = 0;
  double d_z = 0;
  std::array<double, thresholds_count> d_theta{};
};

ExampleGradient example_gradient(const std::array<double, thresholds_count>& theta, double z, std::size_t y,
                                 double temperature) {
  // P(y) = F(upper) - F(lower); F(-inf) = 0, F(+inf) = 1; y is 0-based.
  const bool has_upper = y < thresholds_count;
  const bool has_lower = y > 0;
  const double upper_arg = has_upper ? (theta[y] - z) / temperature : 0;
  const double lower_arg = has_lower ? (theta[y - 1] - z) / temperature : 0;
  const double f_upper = has_upper ? sigmoid(upper_arg) : 1.0;
  const double f_lower = has_lower ? sigmoid(lower_arg) : 0.0;
  const double p = std::max(f_upper - f_lower, 1e-12);
  const double d_upper = has_upper ? f_upper * (1 - f_upper) / temperature : 0.0;
  const double d_lower = has_lower ? f_lower * (1 - f_lower) / temperature : 0.0;
  ExampleGradient g;
  g.nll = -std::log(p);
  // d(-log p)/dz = (d_upper - d_lower) / p, since d(theta - z)/dz = -1.
  g.d_z = (d_upper - d_lower) / p;
  if (has_upper) g.d_theta[y] = -d_upper / p;
  if (has_lower) g.d_theta[y - 1] = d_lower / p;
  return g;
}

std::size_t offset_of(forecast::SpeedupBin bin) { return forecast::bin_offset(bin); }

// Thresholds of the class frequencies (add-one smoothed): the training prior.
std::array<double, thresholds_count> prior_thresholds(std::span<const TrainingExample> examples) {
  std::array<double, forecast::bin_count> counts{};
  counts.fill(1.0);
  for (const auto& e : examples) counts[offset_of(e.bin)] += 1;
  const double total = static_cast<double>(examples.size()) + forecast::bin_count;
  std::array<double, thresholds_count> theta{};
  double cumulative = 0;
  for (std::size_t k = 0; k < thresholds_count; ++k) {
    cumulative += counts[k] / total;
    theta[k] = std::log(cumulative / (1 - cumulative));
  }
  return theta;
}

double fold_nll(const std::array<double, thresholds_count>& theta, std::span<const double> z,
                std::span<const std::size_t> y, double temperature) {
  double total = 0;
  for (std::size_t i = 0; i < z.size(); ++i) total += example_gradient(theta, z[i], y[i], temperature).nll;
  return z.empty() ? 0 : total / static_cast<double>(z.size());
}

}  // namespace

OrdinalModel fit_ordinal(std::span<const TrainingExample> examples, const TrainingOptions& options) {
  Parameters start;
  const auto theta0 = prior_thresholds(examples);
  start.first = theta0[0];
  for (std::size_t k = 1; k < thresholds_count; ++k)
    start.log_gaps[k - 1] = std::log(std::max(theta0[k] - theta0[k - 1], 1e-3));
  auto x = flatten(start);
  std::array<double, parameter_count> m{}, v{};
  const double n = static_cast<double>(std::max<std::size_t>(examples.size(), 1));
  constexpr double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
  for (int step = 1; step <= options.iterations; ++step) {
    const Parameters p = unflatten(x);
    const auto theta = p.thresholds();
    std::array<double, parameter_count> grad{};
    std::array<double, thresholds_count> d_theta{};
    for (const TrainingExample& e : examples) {
      double z = 0;
      for (std::size_t i = 0; i < feature_count; ++i) z += p.weights[i] * e.delta.values[i];
      const ExampleGradient g = example_gradient(theta, z, offset_of(e.bin), 1.0);
      for (std::size_t i = 0; i < feature_count; ++i) grad[i] += g.d_z * e.delta.values[i] / n;
      for (std::size_t k = 0; k < thresholds_count; ++k) d_theta[k] += g.d_theta[k] / n;
    }
    for (std::size_t i = 0; i < feature_count; ++i) grad[i] += options.l2 * p.weights[i];
    // theta_k = first + sum_{j < k} exp(log_gap_j).
    for (std::size_t k = 0; k < thresholds_count; ++k) grad[feature_count] += d_theta[k];
    for (std::size_t j = 0; j + 1 < thresholds_count; ++j) {
      double sum = 0;
      for (std::size_t k = j + 1; k < thresholds_count; ++k) sum += d_theta[k];
      grad[feature_count + 1 + j] = sum * std::exp(p.log_gaps[j]);
    }
    for (std::size_t i = 0; i < parameter_count; ++i) {
      m[i] = beta1 * m[i] + (1 - beta1) * grad[i];
      v[i] = beta2 * v[i] + (1 - beta2) * grad[i] * grad[i];
      const double m_hat = m[i] / (1 - std::pow(beta1, step));
      const double v_hat = v[i] / (1 - std::pow(beta2, step));
      x[i] -= options.learning_rate * m_hat / (std::sqrt(v_hat) + epsilon);
    }
    // Projected: a weight whose sign how GPUs work settles stays on its side of zero.
    for (const FeatureInfo& f : all_features()) {
      double& w = x[index(f.feature)];
      if ((f.direction == Direction::faster && w < 0) || (f.direction == Direction::slower && w > 0)) w = 0;
    }
  }
  const Parameters fitted = unflatten(x);
  OrdinalModel model;
  model.status = ModelStatus::trained;
  model.training_pairs = examples.size();
  model.weights = fitted.weights;
  model.thresholds = fitted.thresholds();
  model.missing_group_mix = options.missing_group_mix;
  return model;
}

double mean_nll(const OrdinalModel& model, std::span<const TrainingExample> examples) {
  double total = 0;
  for (const TrainingExample& e : examples) {
    const auto p = predict(model, e.delta).probability(e.bin);
    total += -std::log(std::max(p, 1e-12));
  }
  return examples.empty() ? 0 : total / static_cast<double>(examples.size());
}

Result<TrainingReport> train_model(std::span<const TrainingExample> examples, const TrainingOptions& options) {
  if (examples.size() < 2) return fail(ExitCode::usage, "training needs at least two labelled pairs");
  // Folds: one per family when there are two or more, else `folds` by position.
  std::map<std::string, std::size_t> family_fold;
  for (const auto& e : examples)
    if (!e.family.empty()) family_fold.emplace(e.family, family_fold.size());
  const bool by_family = family_fold.size() >= 2 &&
                         std::ranges::all_of(examples, [](const TrainingExample& e) { return !e.family.empty(); });
  const std::size_t folds = by_family ? family_fold.size() : std::min(options.folds, examples.size());
  if (folds < 2) return fail(ExitCode::usage, "training needs at least two folds (set more folds or more pairs)");
  auto fold_of = [&](std::size_t i) { return by_family ? family_fold.at(examples[i].family) : i % folds; };

  // Out-of-fold scores: each fold forecast by a model fitted without it.
  std::vector<double> z(examples.size());
  std::vector<std::array<double, thresholds_count>> theta(examples.size());
  std::vector<std::size_t> y(examples.size());
  for (std::size_t fold = 0; fold < folds; ++fold) {
    std::vector<TrainingExample> train;
    for (std::size_t i = 0; i < examples.size(); ++i)
      if (fold_of(i) != fold) train.push_back(examples[i]);
    const OrdinalModel model = fit_ordinal(train, options);
    for (std::size_t i = 0; i < examples.size(); ++i) {
      if (fold_of(i) != fold) continue;
      z[i] = score(model, examples[i].delta);
      theta[i] = model.thresholds;
      y[i] = offset_of(examples[i].bin);
    }
  }
  auto oof_nll = [&](double temperature) {
    double total = 0;
    for (std::size_t i = 0; i < examples.size(); ++i) {
      const auto p = bin_probabilities(theta[i], z[i], temperature);
      total += -std::log(std::max(p[y[i]], 1e-12));
    }
    return total / static_cast<double>(examples.size());
  };
  // Golden-section search of log T over [log 0.05, log 5]: the NLL is unimodal enough in T. Beyond
  // 5 an ordinal model piles its mass into the two open-ended bins rather than flattening.
  double lo = std::log(0.05), hi = std::log(5.0);
  const double ratio = (std::sqrt(5.0) - 1) / 2;
  for (int step = 0; step < 80; ++step) {
    const double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
    if (oof_nll(std::exp(a)) <= oof_nll(std::exp(b)))
      hi = b;
    else
      lo = a;
  }
  const double temperature = std::exp((lo + hi) / 2);

  TrainingReport report;
  report.folds = folds;
  report.by_family = by_family;
  report.out_of_fold_nll_uncalibrated = oof_nll(1.0);
  report.out_of_fold_nll = oof_nll(temperature);
  std::size_t correct = 0;
  for (std::size_t i = 0; i < examples.size(); ++i) {
    const auto p = bin_probabilities(theta[i], z[i], temperature);
    const auto best = static_cast<std::size_t>(std::max_element(p.begin(), p.end()) - p.begin());
    correct += best == y[i];
  }
  report.out_of_fold_accuracy = static_cast<double>(correct) / static_cast<double>(examples.size());
  const auto prior = prior_thresholds(examples);
  std::vector<double> zeros(examples.size(), 0.0);
  report.prior_nll = fold_nll(prior, zeros, y, 1.0);

  report.model = fit_ordinal(examples, options);
  report.model.temperature = temperature;
  report.model.note =
      "trained on " + std::to_string(examples.size()) + " labelled pairs, temperature fitted out of fold";
  return report;
}

}  // namespace kforecast::embedded
