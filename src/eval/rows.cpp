// SPDX-License-Identifier: Apache-2.0
#include "eval/rows.hpp"

#include <array>
#include <set>

namespace kforecast::eval {

using forecast::BinDistribution;
using forecast::SpeedupBin;

std::vector<EvalRow> eval_rows(std::span<const embedded::LabelledPair> pairs) {
  std::vector<EvalRow> rows;
  rows.reserve(pairs.size());
  for (const auto& pair : pairs) {
    EvalRow row;
    row.id = pair.id;
    row.family = pair.family;
    row.line = pair.line;
    row.speedup = pair.speedup;
    // The reader accepts only finite positive speedups, and every one of those has a bin.
    row.true_bin = forecast::bin_from_speedup(pair.speedup).value();
    row.reference_key = pair.family + '\0' + pair.reference.kernel + '\0' + pair.reference.source.str();
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<EvalRow> ledger_rows(const policy::LedgerReading& ledger) {
  std::vector<EvalRow> rows;
  for (const auto& entry : ledger.entries) {
    if (!entry.speedup) continue;
    const auto bin = forecast::bin_from_speedup(*entry.speedup);
    if (!bin) continue;  // the reader keeps only finite positive speedups; this is belt and braces
    EvalRow row;
    row.id = entry.kernel;
    row.family = entry.file;
    row.speedup = *entry.speedup;
    row.true_bin = *bin;
    row.forecast = entry.forecast;
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string family_label(const std::string& family) { return family.empty() ? "(no family)" : family; }

BinDistribution training_prior(std::span<const SpeedupBin> bins) {
  std::array<double, forecast::bin_count> counts{};
  counts.fill(1.0);
  for (const SpeedupBin bin : bins) counts[forecast::bin_offset(bin)] += 1.0;
  const double total = static_cast<double>(bins.size() + forecast::bin_count);
  for (double& c : counts) c /= total;
  return BinDistribution::from_raw(counts).value();
}

void set_training_priors(std::vector<EvalRow>& rows, CrossValidation cv) {
  if (cv == CrossValidation::none) {
    std::vector<SpeedupBin> bins;
    for (const auto& row : rows) bins.push_back(row.true_bin);
    const auto prior = training_prior(bins);
    for (auto& row : rows) row.prior = prior;
    return;
  }
  for (const std::string& family : families_of(rows)) {
    std::vector<SpeedupBin> bins;
    for (const auto& row : rows)
      if (row.family != family) bins.push_back(row.true_bin);
    const auto prior = training_prior(bins);
    for (auto& row : rows)
      if (row.family == family) row.prior = prior;
  }
}

std::vector<std::string> families_of(std::span<const EvalRow> rows) {
  std::set<std::string> families;
  for (const auto& row : rows) families.insert(row.family);
  return {families.begin(), families.end()};
}

}  // namespace kforecast::eval
