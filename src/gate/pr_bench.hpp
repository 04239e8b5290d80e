// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast pr`'s GPU side: the kernels the policy sent to the GPU, measured on the local GPU
// the way `kforecast bench` measures (one child process for all pairs, a fresh one after a pair
// that fails, regressions confirmed together in another), the ledger line of each measurement, and the run's GPU time. Without a usable
// GPU, or with --no-bench, they stay unverified and policy.on_unverified decides.

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "base/shared_text.hpp"
#include "bench/measurement.hpp"
#include "config/config.hpp"
#include "gate/kernel_case.hpp"
#include "gate/measure_jobs.hpp"
#include "gate/measure_step.hpp"
#include "gate/outside.hpp"
#include "gate/settings.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"
#include "report/report.hpp"

namespace kforecast::gate {

// Measuring turned off, and why: each kernel's note says `reason`, the footer `note`.
struct NoBench {
  bool set = false;
  std::string reason = "--no-bench was given";
  std::string note = "--no-bench";
};

// Sees each kernel's outcome as it is decided: a measurement, or why it was not measured (the
// reason policy.on_unverified is applied with). A plan's shard records them (plan/shard_results.hpp).
using MeasureObserver = std::function<void(std::size_t entry, const Result<bench::Measurement>& outcome)>;

struct PrBenchInputs {
  const kernels::RevisionSources& base;
  const kernels::RevisionSources& head;
  std::filesystem::path ledger;  // policy.ledger, resolved
  NoBench no_bench;              // --no-bench (pr), no --bench (check)
  MeasureObserver observe = {};  // hears each measurement (bench prints it as measured)
};

// measure_in_pr over jobs instead of an analysis: what a plan's shard runs.
void measure_jobs_in_pr(GateRun& run, std::span<const MeasureJob> jobs, const std::filesystem::path& ledger,
                        const NoBench& no_bench, const Settings& settings, Outside& outside,
                        const MeasureObserver& observe = {});

// Measures `to_measure` (from apply_policy) and completes the run: each case's measurement and
// verdict, the GPU time, and notes for anything that went wrong around the measurements (a
// ledger that cannot be written). Progress goes to the outside's progress or terminal, if any.
void measure_in_pr(GateRun& run, std::span<const std::size_t> to_measure, const PrBenchInputs& inputs,
                   const Settings& settings, Outside& outside);

}  // namespace kforecast::gate
