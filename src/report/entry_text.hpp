// SPDX-License-Identifier: Apache-2.0
#pragma once

// The words every human-facing writer (Markdown, the terminal view) uses for a kernel entry, so
// the two say the same thing: the decision, the measured speedup, why a kernel did not pass, the
// GPU-time footer, and which notes every kernel shares (a machine-wide condition, said once).
// Plain text: each writer escapes for where it writes.

#include <set>
#include <string>
#include <vector>

#include "report/report.hpp"

namespace kforecast::report {

// "identical code", "measured", ...; "not judged" for a kernel left at forecast_only without a
// forecast (its forecaster failed, or the forecasters cannot read what changed), where "forecast
// only" would claim a forecast it does not have.
std::string decision_text(const KernelEntry& entry);

// "1.031x [1.012, 1.049]", or "not timed" where nothing was timed (a failed measurement prints
// no speedup).
std::string speedup_text(const MeasurementEntry& measurement);

// Why a kernel that did not pass did not: a failed or undecided measurement's reason, a compile
// failure, or why it was not measured; "" for a kernel that passed or gives no reason.
std::string verdict_reason(const KernelEntry& entry);

// "GPU time: 2.1 s spent measuring 2 of 5 changed kernels; about 3.2 s saved ... (note)."
std::string gpu_time_text(const GpuTime& time);

// Notes every kernel of the report carries word for word, when there are two kernels or more: a
// condition of the machine or the run (no NVRTC, no GPU), which a reader should meet once.
std::set<std::string> notes_shared_by_all(const std::vector<KernelEntry>& kernels);

}  // namespace kforecast::report
