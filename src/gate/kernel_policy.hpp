// SPDX-License-Identifier: Apache-2.0
#pragma once

// The policy over the changed kernels once forecast: a trusted forecast
// settles its kernel; every other changed kernel needs a GPU measurement and stays unverified
// (warn, or fail with policy.on_unverified = "fail") until one is taken. An untrusted author's
// kernel is never passed on a forecast its own text can steer. Used by pr and check.

#include <optional>
#include <string_view>
#include <vector>

#include "gate/kernel_case.hpp"
#include "git/change_author.hpp"
#include "policy/trust.hpp"
#include "report/report.hpp"

namespace kforecast::gate {

// policy.on_unverified: what a kernel that needs a GPU measurement is until it has one.
enum class Unverified { warn, fail };

// The forecasters whose answer the kernel's own text can steer (the LLM's, not its embedded
// stand-in): an untrusted author's kernel is not passed on their forecast alone.
bool steerable(const report::ForecastEntry& forecast);

// Decides every case still open (forecast_only, warn); returns the cases that need a GPU
// measurement, in order. A case's second opinion (the embedded forecaster's) may pass a kernel
// the author's standing keeps the LLM's forecast from passing on its own.
std::vector<std::size_t> apply_policy(std::vector<KernelCase>& cases, const policy::TrustThresholds& bars,
                                      Unverified unverified, const git::ChangeAuthor& author);

}  // namespace kforecast::gate
