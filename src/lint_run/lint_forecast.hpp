// SPDX-License-Identifier: Apache-2.0
#pragma once

// The offline forecast inside `kforecast lint`: each kernel the
// change touches (kernels/changed_kernels, as `kforecast pr` finds them) is forecast through the
// Forecaster seam against its version at HEAD, and reported as a diagnostic on the kernel's line
// with the rationale in note lines. A forecast that gives a regression a probability above
// lint.forecast_fail_confidence is an error (exit 1); any other is a note. The lint's forecaster
// is the embedded one without a compiler (lint_forecaster): no network, and no NVRTC, to stay
// within a pre-commit hook's budget (`kforecast pr --staged` forecasts with compiler facts).

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "change/pr_sources.hpp"
#include "embedded/labelled_pairs.hpp"
#include "forecasters/embedded_forecaster.hpp"
#include "forecasters/forecaster.hpp"
#include "git/repository.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "lint/linter.hpp"

namespace kforecast::lint_run {

struct LintForecastSettings {
  double fail_above = 0.8;        // lint.forecast_fail_confidence
  std::string hardware = "H100";  // forecast.hardware, named in the run's note
  std::string cuda_include;       // CUDA's include directory, "" where there is none
};

struct LintForecasts {
  std::vector<lint::Diagnostic> diagnostics;
  std::vector<std::string> notes;  // kernels not forecast and why, how the forecast was made
};

// The launch geometry of a kernel at the head revision, where a launch spec gives one.
using LaunchLookup = std::function<std::optional<embedded::LaunchGeometry>(const kernel_changes::KernelSite&)>;

// The pseudo-rule forecast diagnostics carry ("forecast"), for the writers' rule table.
const lint::Rule& forecast_rule();

// The lint's forecaster: the embedded one, offline and without a compiler (source features
// only), for sm_90 and `hardware` (forecast.hardware; no GPU figures where the table lacks it).
// `tolerance` (bench.tolerance) sets what counts as a regression.
forecasters::EmbeddedForecaster lint_forecaster(const std::string& hardware, double tolerance);

// `shown` maps repository-relative paths to the names diagnostics use (others print as they are).
// An error only where the forecaster fails before any kernel (Forecaster::forecast).
Result<LintForecasts> forecast_changed_kernels(const change::PrSources& sources,
                                               const std::map<std::string, std::string, std::less<>>& shown,
                                               const LintForecastSettings& settings, const forecasters::Forecaster& forecaster,
                                               const LaunchLookup& launch = {});

// The sources for `kforecast lint FILE...`: the named files (repository-relative path and text,
// as the lint read them from the working tree) against HEAD; the CUDA headers from the working
// tree and HEAD. A file whose text equals HEAD's is not touched.
Result<change::PrSources> read_worktree_sources(const git::Repository& repository,
                                        const std::vector<std::pair<std::string, std::string>>& files);

// "0.71–1.00": the speedup range of a bin (1..8).
std::string bin_range(int bin);

}  // namespace kforecast::lint_run
