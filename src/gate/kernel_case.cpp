// SPDX-License-Identifier: Apache-2.0
#include "gate/kernel_case.hpp"

#include <algorithm>

namespace kforecast::gate {

bool any_failed(const GateRun& run) {
  return std::ranges::any_of(
      run.cases, [](const KernelCase& kernel) { return kernel.entry.verdict == report::KernelVerdict::fail; });
}

report::Report build_report(const GateRun& run) {
  report::Report report{run.version,
                        run.base,
                        run.head,
                        any_failed(run) ? report::GateVerdict::fail : report::GateVerdict::pass,
                        {},
                        run.notes};
  report.kernels.reserve(run.cases.size());
  for (const auto& kernel : run.cases) report.kernels.push_back(kernel.entry);
  report.gpu_time = run.gpu_time;
  report.warnings = run.warnings;
  return report;
}

GateRun run_of(const report::Report& report) {
  GateRun run{report.version, report.base, report.head, {}, report.notes, report.warnings, report.gpu_time};
  run.cases.reserve(report.kernels.size());
  // What changed is the report's to tell from here on: a plan carries no scan.
  for (const auto& entry : report.kernels) run.cases.push_back({.entry = entry});
  return run;
}

}  // namespace kforecast::gate
