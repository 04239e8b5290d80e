// SPDX-License-Identifier: Apache-2.0
#include "eval/scoring.hpp"

#include <map>

#include "forecast/topk_recovery.hpp"

namespace kforecast::eval {
namespace {

std::optional<double> mean_topk_recovery(std::span<const EvalRow* const> rows, Scored scored) {
  std::map<std::string, std::vector<forecast::RankedCandidate>> by_reference;
  for (const EvalRow* row : rows)
    by_reference[row->reference_key].push_back({scored_distribution(*row, scored).expected_speedup(), row->speedup});
  double total = 0;
  std::size_t groups = 0;
  for (const auto& [reference, candidates] : by_reference) {
    if (candidates.size() < 2) continue;
    // The top one: a fraction of 1/N is one candidate.
    total += forecast::topk_recovery(candidates, 1.0 / static_cast<double>(candidates.size())).value();
    ++groups;
  }
  if (groups == 0) return std::nullopt;
  return total / static_cast<double>(groups);
}

Scores score(std::span<const EvalRow* const> rows, Scored scored, const PolicySettingsForEval& settings) {
  std::vector<forecast::LabelledForecast> labelled;
  std::vector<policy::LedgerEntry> entries;
  for (const EvalRow* row : rows) {
    const auto distribution = scored_distribution(*row, scored);
    labelled.push_back({distribution, row->speedup});
    // The policy's own evaluation reads ledger entries: a forecast and its measured speedup.
    policy::LedgerEntry entry;
    entry.forecast = distribution;
    entry.speedup = row->speedup;
    entries.push_back(std::move(entry));
  }
  // Rows are never empty here and every speedup was validated by the reader.
  return {forecast::compute_metrics(labelled).value(), mean_topk_recovery(rows, scored),
          policy::evaluate_policy(entries, settings.thresholds, settings.tolerance)};
}

}  // namespace

forecast::BinDistribution scored_distribution(const EvalRow& row, Scored scored) {
  switch (scored) {
    case Scored::forecaster:
      return row.forecast;
    case Scored::training_prior:
      return row.prior;
    case Scored::always_bin_5:
      return forecast::BinDistribution::one_hot(forecast::SpeedupBin::minor_speedup);
  }
  return row.forecast;
}

GroupScores score_group(std::string name, std::span<const EvalRow* const> rows, const PolicySettingsForEval& policy) {
  return {std::move(name), score(rows, Scored::forecaster, policy), score(rows, Scored::training_prior, policy),
          score(rows, Scored::always_bin_5, policy)};
}

std::vector<GroupScores> score_by_family(std::span<const EvalRow> rows, const PolicySettingsForEval& policy) {
  std::vector<GroupScores> groups;
  for (const std::string& family : families_of(rows)) {
    std::vector<const EvalRow*> members;
    for (const auto& row : rows)
      if (row.family == family) members.push_back(&row);
    groups.push_back(score_group(family_label(family), members, policy));
  }
  std::vector<const EvalRow*> all;
  for (const auto& row : rows) all.push_back(&row);
  groups.push_back(score_group("overall", all, policy));
  return groups;
}

}  // namespace kforecast::eval
