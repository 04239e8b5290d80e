// SPDX-License-Identifier: Apache-2.0
#include "embedded/rationale.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>

namespace kforecast::embedded {
namespace {

std::string value_text(Feature feature, double value) {
  if (feature == Feature::occupancy) return fmt::format("{:.0f}%", value * 100);
  if (feature == Feature::waves) return fmt::format("{:.2g}", value);
  if (feature == Feature::fp64_share || feature == Feature::special_share) return fmt::format("{:.0f}%", value * 100);
  if (feature == Feature::shared_per_global || feature == Feature::barriers_per_global)
    return fmt::format("{:.2g}", value);
  if (feature == Feature::est_dram_time || feature == Feature::est_compute_time || feature == Feature::est_time)
    return value > 0 ? fmt::format("{:.3g} us", value) : std::string("unknown (loop in PTX)");
  return fmt::format("{:.0f}", value);
}

}  // namespace

std::vector<FeaturePull> feature_pulls(const OrdinalModel& model, const FeatureVector& reference,
                                       const FeatureVector& candidate, std::size_t limit) {
  const FeatureDelta delta = feature_delta(reference, candidate);
  std::vector<FeaturePull> pulls;
  bool any_pull = false;
  for (const FeatureInfo& f : all_features()) {
    const double d = delta[f.feature];
    if (d == 0 || !std::isfinite(d)) continue;
    const double pull = model.weights[index(f.feature)] * d;
    any_pull = any_pull || pull != 0;
    pulls.push_back({f.feature, reference[f.feature], candidate[f.feature], d, pull});
  }
  if (any_pull) std::erase_if(pulls, [](const FeaturePull& p) { return p.pull == 0; });
  std::ranges::stable_sort(pulls, [&](const FeaturePull& a, const FeaturePull& b) {
    return any_pull ? std::abs(a.pull) > std::abs(b.pull) : std::abs(a.delta) > std::abs(b.delta);
  });
  if (pulls.size() > limit) pulls.resize(limit);
  return pulls;
}

std::string rationale(const OrdinalModel& model, const FeatureVector& reference, const FeatureVector& candidate) {
  std::vector<std::string> parts;
  const auto pulls = feature_pulls(model, reference, candidate);
  const bool prior = model.status == ModelStatus::prior;
  std::string changes;
  for (const FeaturePull& p : pulls) {
    if (!changes.empty()) changes += "; ";
    changes += fmt::format("{} {} -> {}", info(p.feature).label, value_text(p.feature, p.reference),
                           value_text(p.feature, p.candidate));
    if (!prior && p.pull != 0) changes += p.pull > 0 ? " (faster)" : " (slower)";
  }
  if (prior) parts.push_back("embedded model untrained (no measured pairs yet): the forecast is a wide prior");
  if (!changes.empty()) parts.push_back((prior ? "largest changes: " : "") + changes);
  if (changes.empty() && reference.source && candidate.source) parts.push_back("no feature changed");
  if (!reference.source || !candidate.source) parts.push_back("kernel not found in its source");
  if (!reference.compiler || !candidate.compiler) parts.push_back("no NVRTC facts");
  if (!reference.launch || !candidate.launch) parts.push_back("no launch spec");
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

}  // namespace kforecast::embedded
