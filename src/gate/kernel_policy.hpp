// SPDX-License-Identifier: Apache-2.0
#pragma once

// The policy over the changed kernels once forecast (DESIGN.md step 4): a trusted forecast
// settles its kernel; every other changed kernel needs a GPU measurement and stays unverified
// (warn, or fail with policy.on_unverified = "fail") until one is taken. An untrusted author's
// kernel is never passed on a forecast its own text can steer. Used by pr and check.

#include <optional>
#include <string_view>
#include <vector>

#include "git/change_author.hpp"
#include "policy/trust.hpp"
#include "report/report.hpp"

namespace kforecast::gate {

// The note a kernel carries until the policy decides it. TODO(issue 15): a KernelCase state
// replaces this note-as-flag.
inline constexpr std::string_view unverified_placeholder =
    "not verified: the forecasters and the GPU benchmark are not built yet";

// policy.on_unverified: what a kernel that needs a GPU measurement is until it has one.
enum class Unverified { warn, fail };

// The forecasters whose answer the kernel's own text can steer (the LLM's, not its embedded
// stand-in): an untrusted author's kernel is not passed on their forecast alone.
bool steerable(const report::ForecastEntry& forecast);

// Decides every entry still open (forecast_only, warn) and sets the gate verdict; returns the
// entries that need a GPU measurement, in report order. `second_opinions[i]`: the embedded
// forecaster's forecast for entry i, asked for where the author's standing keeps the LLM's
// forecast from passing the kernel on its own.
std::vector<std::size_t> apply_policy(report::Report& report, const policy::TrustThresholds& bars,
                                      Unverified unverified, const git::ChangeAuthor& author,
                                      const std::vector<std::optional<report::ForecastEntry>>& second_opinions);

}  // namespace kforecast::gate
