// SPDX-License-Identifier: Apache-2.0
#include "forecast/topk_recovery.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

namespace kforecast::forecast {

Result<double> topk_recovery(std::span<const RankedCandidate> candidates, double fraction) {
  if (candidates.empty()) return fail(ExitCode::could_not_run, "no candidates to rank");
  if (!(fraction > 0.0 && fraction <= 1.0)) {  // also rejects NaN
    return usage_error(fmt::format("top-k fraction {} is invalid; it must be in (0, 1]", fraction));
  }
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const RankedCandidate& c = candidates[i];
    if (!std::isfinite(c.predicted_score) || !std::isfinite(c.measured_speedup) || c.measured_speedup <= 0.0) {
      return fail(ExitCode::could_not_run,
                  fmt::format("candidate {} has predicted score {} and measured speedup {}; the score must be "
                              "finite and the speedup finite and > 0",
                              i + 1, c.predicted_score, c.measured_speedup));
    }
  }
  std::vector<RankedCandidate> ranked(candidates.begin(), candidates.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const RankedCandidate& a, const RankedCandidate& b) {
    return a.predicted_score > b.predicted_score;
  });

  const double wanted = fraction * static_cast<double>(ranked.size());
  const auto taken = std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(wanted - 1e-9)));

  const auto by_speedup = [](const RankedCandidate& a, const RankedCandidate& b) {
    return a.measured_speedup < b.measured_speedup;
  };
  const double best_taken =
      std::max_element(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(taken), by_speedup)
          ->measured_speedup;
  const double best_overall = std::max_element(ranked.begin(), ranked.end(), by_speedup)->measured_speedup;
  return best_taken / best_overall;
}

}  // namespace kforecast::forecast
