// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast pr`'s GPU side: the kernels the policy sent to the GPU, measured on the local GPU
// the way `kforecast bench` measures (a child process per pair, a regression confirmed in a
// second one), the ledger line of each measurement, and the run's GPU time. Without a usable
// GPU, or with --no-bench, they stay unverified and policy.on_unverified decides.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>

#include "base/error.hpp"
#include "cli/command.hpp"
#include "config/config.hpp"
#include "kernels/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"
#include "report/report.hpp"

namespace kforecast::cli {

struct PrBenchInputs {
  const kernels::ChangeAnalysis& analysis;  // report.kernels[i] is analysis.kernels[i]
  const kernels::RevisionSources& base;
  const kernels::RevisionSources& head;
  std::filesystem::path ledger;  // policy.ledger, resolved
  bool no_bench = false;         // --no-bench
  // Why nothing is measured when no_bench is set, for each kernel's note.
  std::string no_bench_reason = "--no-bench was given";
  std::string no_bench_note = "--no-bench";  // ... and for the footer
};

// Why no kernel can be measured here, or nullopt when a GPU is usable: the CUDA driver loads and
// reports a device (the check `kforecast doctor` makes).
std::optional<std::string> no_gpu_reason(const config::Config& config);

// Measures `to_measure` (from apply_policy) and completes the report: each entry's measurement
// and verdict, the gate verdict, report.gpu_time, and notes for anything that went wrong around
// the measurements (a ledger that cannot be written). Progress goes to the terminal, if any.
void measure_in_pr(report::Report& report, std::span<const std::size_t> to_measure, const PrBenchInputs& inputs,
                   const config::Config& config, Context& context);

}  // namespace kforecast::cli
