// SPDX-License-Identifier: Apache-2.0
#include "embedded/training_set.hpp"

#include <ostream>
#include <set>

#include <fmt/format.h>

#include "forecast/speedup_bin.hpp"

namespace kforecast::embedded {

Result<TrainingSet> training_set(std::span<const LabelledPair> pairs, const FeatureContext& features,
                                 std::string_view dataset) {
  FeatureCache cache(features);
  TrainingSet set;
  std::set<std::string> families;
  for (const auto& pair : pairs) {
    auto bin = forecast::bin_from_speedup(pair.speedup);
    if (!bin) return usage_error(fmt::format("{}:{}: {}", dataset, pair.line, bin.error().message));
    cache.prepare({&pair.reference, &pair.candidate});  // two new texts compile at once
    const auto& reference = cache.features(pair.reference);
    const auto& candidate = cache.features(pair.candidate);
    TrainingExample example{feature_delta(reference, candidate), *bin, pair.family};
    set.with_compiler_facts += example.delta.compiler;
    set.with_launch += example.delta.launch;
    set.without_source += !example.delta.source;
    if (!pair.family.empty()) families.insert(pair.family);
    set.examples.push_back(std::move(example));
  }
  set.families = families.size();
  return set;
}

void write_training_summary(std::ostream& out, const TrainingRunLabels& labels, const TrainingSet& set,
                            const TrainingReport& report) {
  out << fmt::format("kforecast train: {} pairs from {} ({} families), {} for {}\n", set.examples.size(),
                     labels.dataset, set.families, labels.hardware, labels.arch);
  out << fmt::format("  features: NVRTC facts for {} pairs{}, launch for {}, kernel not found in {}\n",
                     set.with_compiler_facts,
                     labels.nvrtc_not_used ? fmt::format(" (NVRTC not used: {})", *labels.nvrtc_not_used) : "",
                     set.with_launch, set.without_source);
  out << fmt::format(
      "  out of fold ({} folds, {}): NLL {:.4f} at T = 1, {:.4f} at T = {:.3f}; training prior {:.4f}; "
      "accuracy {:.3f}\n",
      report.folds, report.by_family ? "one per family" : "by position", report.out_of_fold_nll_uncalibrated,
      report.out_of_fold_nll, report.model.temperature, report.prior_nll, report.out_of_fold_accuracy);
}

}  // namespace kforecast::embedded
