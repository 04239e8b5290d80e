// SPDX-License-Identifier: Apache-2.0
#pragma once

// The embedded forecaster in `kforecast pr` (the default): each changed kernel that the
// identical-code tier did not settle is forecast offline from the features of both versions,
// with NVRTC facts where a compiler is present. It never fails: what it cannot read widens the
// distribution, and the rationale says so.

#include <cstddef>
#include <optional>
#include <vector>

#include "base/environment.hpp"
#include "cli/forecast_entry.hpp"
#include "embedded/facts_cache.hpp"
#include "embedded/labelled_pairs.hpp"
#include "embedded/pair_features.hpp"
#include "report/report.hpp"

namespace kforecast::cli {

// The on-disk cache of the forecaster's compiler facts: …/kforecast/facts, beside the PTX cache
// (policy::default_ptx_cache_directory), and absent exactly when that is (no cache directory).
std::optional<embedded::FactsCache> default_facts_cache(const EnvLookup& env);

struct EmbeddedKernelInput {
  std::size_t entry = 0;  // index into Report::kernels
  embedded::KernelText reference;
  embedded::KernelText candidate;
};

// `tolerance` (bench.tolerance) sets what P(regression) counts as a regression.
void add_embedded_forecasts(report::Report& report, const std::vector<EmbeddedKernelInput>& inputs,
                            const embedded::FeatureContext& context, double tolerance);

// The embedded forecaster standing in for `failed_forecaster` (forecast.fallback = "embedded"):
// each kernel of `failures` found among `inputs` gets the embedded forecast, labelled as a
// fallback with the failure's reason. The policy then treats it as any embedded forecast.
void add_fallback_forecasts(report::Report& report, const std::vector<EmbeddedKernelInput>& inputs,
                            const std::vector<ForecastFailure>& failures, std::string_view failed_forecaster,
                            const embedded::FeatureContext& context, double tolerance);

}  // namespace kforecast::cli
