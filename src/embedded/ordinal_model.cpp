// SPDX-License-Identifier: Apache-2.0
#include "embedded/ordinal_model.hpp"

#include <fmt/format.h>
#include <charconv>
#include <cmath>

#include "embedded/default_model_text.hpp"

namespace kforecast::embedded {
namespace {

double sigmoid(double x) { return x >= 0 ? 1.0 / (1.0 + std::exp(-x)) : std::exp(x) / (1.0 + std::exp(x)); }

int missing_groups(const FeatureDelta& delta) {
  return (delta.compiler ? 0 : 1) + (delta.launch ? 0 : 1) + (delta.source ? 0 : 1);
}

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

std::optional<double> parse_number(std::string_view text) {
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

}  // namespace

double score(const OrdinalModel& model, const FeatureDelta& delta) {
  double z = 0;
  for (std::size_t i = 0; i < feature_count; ++i) z += model.weights[i] * delta.values[i];
  return z;
}

std::array<double, forecast::bin_count> bin_probabilities(const std::array<double, forecast::bin_count - 1>& thresholds,
                                                          double z, double temperature) {
  std::array<double, forecast::bin_count> p{};
  double below = 0;
  for (std::size_t k = 0; k < thresholds.size(); ++k) {
    const double cumulative = sigmoid((thresholds[k] - z) / temperature);
    p[k] = std::max(cumulative - below, 0.0);
    below = std::max(below, cumulative);
  }
  p[forecast::bin_count - 1] = std::max(1.0 - below, 0.0);
  // Keep every bin possible: a forecast of exactly 0 cannot be scored by log-likelihood.
  double sum = 0;
  for (double& v : p) sum += (v = std::max(v, 1e-9));
  for (double& v : p) v /= sum;
  return p;
}

forecast::BinDistribution predict(const OrdinalModel& model, const FeatureDelta& delta) {
  auto p = bin_probabilities(model.thresholds, score(model, delta), model.temperature);
  const double uniform = 1.0 - std::pow(1.0 - model.missing_group_mix, missing_groups(delta));
  for (double& v : p) v = (1.0 - uniform) * v + uniform / static_cast<double>(forecast::bin_count);
  auto distribution = forecast::BinDistribution::from_raw(p);
  if (!distribution) throw Fatal(distribution.error());
  return *distribution;
}

Result<OrdinalModel> parse_model(std::string_view text, std::string_view origin) {
  OrdinalModel model;
  std::array<bool, forecast::bin_count - 1> seen{};
  bool format_seen = false;
  int line_number = 0;
  auto error = [&](const std::string& what) {
    return fail(ExitCode::usage, fmt::format("{}:{}: {}", origin, line_number, what));
  };
  std::size_t pos = 0;
  while (pos <= text.size()) {
    ++line_number;
    auto end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = trim(text.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty() || line.front() == '#') continue;
    const auto space = line.find_first_of(" \t");
    const std::string_view key = line.substr(0, space);
    const std::string_view rest = space == std::string_view::npos ? std::string_view{} : trim(line.substr(space));
    if (key == "format") {
      if (rest != "1") return error("unsupported format '" + std::string(rest) + "' (this kforecast reads format 1)");
      format_seen = true;
    } else if (key == "status") {
      if (rest == "prior")
        model.status = ModelStatus::prior;
      else if (rest == "trained")
        model.status = ModelStatus::trained;
      else
        return error("status must be 'prior' or 'trained', not '" + std::string(rest) + "'");
    } else if (key == "note") {
      model.note = std::string(rest);
    } else if (key == "missing_group_mix") {
      const auto value = parse_number(rest);
      if (!value || *value < 0 || *value >= 1) return error("missing_group_mix needs a number in [0, 1)");
      model.missing_group_mix = *value;
    } else if (key == "training_pairs" || key == "temperature") {
      const auto value = parse_number(rest);
      if (!value) return error(std::string(key) + " needs a number, got '" + std::string(rest) + "'");
      if (key == "training_pairs") {
        if (*value < 0) return error("training_pairs must not be negative");
        model.training_pairs = static_cast<std::size_t>(*value);
      } else if (*value <= 0 || *value > 1000) {
        return error(std::string(key) + " must be in (0, 1000]");
      } else {
        model.temperature = *value;
      }
    } else if (key == "threshold" || key == "weight") {
      const auto split = rest.find_first_of(" \t");
      if (split == std::string_view::npos) return error(std::string(key) + " needs a name and a value");
      const std::string_view name = rest.substr(0, split);
      const auto value = parse_number(trim(rest.substr(split)));
      if (!value) return error(std::string(key) + " " + std::string(name) + " needs a finite number");
      if (key == "threshold") {
        const auto k = parse_number(name);
        if (!k || *k < 1 || *k > 7 || *k != std::floor(*k)) return error("threshold index must be 1..7");
        model.thresholds[static_cast<std::size_t>(*k) - 1] = *value;
        seen[static_cast<std::size_t>(*k) - 1] = true;
      } else {
        const FeatureInfo* feature = find_feature(name);
        if (!feature) return error("unknown feature '" + std::string(name) + "'");
        model.weights[index(feature->feature)] = *value;
      }
    } else {
      return error("unknown key '" + std::string(key) + "'");
    }
  }
  line_number = 0;
  if (!format_seen) return error("no 'format 1' line: not a kforecast model file");
  for (std::size_t k = 0; k < seen.size(); ++k) {
    if (!seen[k]) return error(fmt::format("threshold {} is missing (all seven are needed)", k + 1));
    if (k > 0 && model.thresholds[k] <= model.thresholds[k - 1])
      return error(fmt::format("thresholds must increase: threshold {} <= threshold {}", k + 1, k));
  }
  return model;
}

std::string render_model(const OrdinalModel& model) {
  std::string out =
      "# kforecast embedded forecaster: ordinal logistic regression over feature differences.\n"
      "# P(bin <= k) = sigmoid((threshold_k - sum_i weight_i * delta_i) / temperature)\n"
      "format 1\n";
  out += fmt::format("status {}\n", model.status == ModelStatus::prior ? "prior" : "trained");
  if (!model.note.empty()) out += "note " + model.note + "\n";
  out += fmt::format("training_pairs {}\n", model.training_pairs);
  out += fmt::format("temperature {:.6g}\n", model.temperature);
  out += fmt::format("missing_group_mix {:.6g}\n", model.missing_group_mix);
  for (std::size_t k = 0; k < model.thresholds.size(); ++k)
    out += fmt::format("threshold {} {:.9g}\n", k + 1, model.thresholds[k]);
  for (const FeatureInfo& f : all_features())
    if (model.weights[index(f.feature)] != 0)
      out += fmt::format("weight {} {:.9g}\n", f.name, model.weights[index(f.feature)]);
  return out;
}

const OrdinalModel& default_model() {
  static const OrdinalModel model = [] {
    auto parsed = parse_model(default_model_text, "src/embedded/default_model.txt");
    if (!parsed) throw Fatal(parsed.error());
    return *parsed;
  }();
  return model;
}

}  // namespace kforecast::embedded
