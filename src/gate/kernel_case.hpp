// SPDX-License-Identifier: Apache-2.0
#pragma once

// The gate's working state: one KernelCase per changed kernel, carried through the tiers
// (identical code, forecast, policy, measurement), and what the run says beside them. The report
// is built from it once, at the end (build_report); no step edits a report on the way.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "builds/unit_builds.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "report/report.hpp"

namespace kforecast::gate {

// One changed kernel's journey. `entry` is the kernel as the report will show it, filled in tier
// by tier: the change (name, file, line, change, reasons), the code verdict's decision and notes,
// the forecast, the policy's decision, the measurement and the verdict.
struct KernelCase {
  kernel_changes::ChangedKernel kernel;  // what changed, as the scan or the machine code found it
  report::KernelEntry entry;
  // The embedded forecaster's forecast, asked for where the author's standing keeps the LLM's
  // forecast from passing the kernel on its own (gate/kernel_policy.hpp); nullopt otherwise.
  std::optional<report::ForecastEntry> second_opinion;
  // Set where nvcc built the kernel's unit at both revisions; nullopt: NVRTC builds it to measure.
  std::optional<builds::BuildArguments> build_arguments;
  // A template kernel's instantiation that unit built at each revision (builds::Instances).
  builds::Instances instances;
};

struct GateRun {
  std::string version;  // kforecast's, as the report records it
  std::string base;  // the revisions compared, as the report names them
  std::string head;
  // One per changed kernel: the scan's, in its order, then those only the machine code showed.
  std::vector<KernelCase> cases;
  std::vector<std::string> notes;
  std::vector<report::RunWarning> warnings;
  std::optional<report::GpuTime> gpu_time;  // set once the measuring step ran
};

// Whether any kernel failed: the gate's verdict.
bool any_failed(const GateRun& run);

// The report of a run: its cases' entries, notes, warnings and GPU time; the verdict is fail
// exactly when a kernel failed.
report::Report build_report(const GateRun& run);

// A report taken up again as a run (a plan's, for its GPU shards and report --merge).
GateRun run_of(const report::Report& report);

}  // namespace kforecast::gate
