// SPDX-License-Identifier: Apache-2.0
#pragma once

// Top-k recovery: if only the candidates the forecaster ranks highest were measured, how much
// of the best achievable speedup would be found? Meaningful over alternatives to one reference
// kernel (candidate rewrites of the same kernel).

#include <span>

#include "base/error.hpp"

namespace kforecast::forecast {

struct RankedCandidate {
  double predicted_score = 0.0;   // higher ranks first, e.g. BinDistribution::expected_speedup()
  double measured_speedup = 0.0;  // finite and > 0
};

// Ranks candidates by predicted_score, highest first; equal scores keep their input order
// (a stable sort), so the earlier candidate ranks first. Takes the top ceil(fraction * N),
// at least 1 (a product within 1e-9 of a whole number counts as that number, so 0.1 of 30 is 3),
// and returns best measured speedup among them / best measured speedup overall, in (0, 1].
// Errors: no candidates, fraction outside (0, 1], a score that is not finite, a speedup that is
// not finite and > 0.
Result<double> topk_recovery(std::span<const RankedCandidate> candidates, double fraction);

}  // namespace kforecast::forecast
