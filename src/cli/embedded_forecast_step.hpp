// SPDX-License-Identifier: Apache-2.0
#pragma once

// The embedded forecaster in `kforecast pr` (the default): each changed kernel that the
// identical-code tier did not settle is forecast offline from the features of both versions,
// with NVRTC facts where a compiler is present. It never fails: what it cannot read widens the
// distribution, and the rationale says so.

#include <cstddef>
#include <vector>

#include "cli/forecast_entry.hpp"
#include "embedded/labelled_pairs.hpp"
#include "embedded/pair_features.hpp"
#include "report/report.hpp"

namespace kforecast::cli {

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
