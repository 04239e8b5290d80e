// SPDX-License-Identifier: Apache-2.0
#pragma once

// The gate over one kernel (or every kernel of a file) in the work tree against the same file at a
// revision or another file, as `kforecast pr` reads, builds, compares and measures two revisions
// (gate/run_gate.hpp). `check` reports it; `bench` prints the measurement it made. One path, so
// that both time the build pr times: the unit's compile context and nvcc where present.

#include <string>

#include "base/error.hpp"
#include "cli/command.hpp"
#include "config/config.hpp"
#include "gate/pr_bench.hpp"
#include "report/report.hpp"

namespace kforecast::cli {

struct CheckGateRequest {
  std::string target;   // FILE[:KERNEL] as given
  std::string against;  // REV; "" with `versus` alone
  std::string versus;   // --vs FILE[:KERNEL]; with `against`, the kernel's file at REV
  // Whether kernels whose machine code differs are measured on the local GPU (check --bench,
  // bench), and why not where they are not.
  gate::NoBench no_bench;
  bool measure_trusted = false;    // a trusted forecast is measured too: the user asked to measure
  gate::MeasureObserver observe;  // hears each measurement
};

Result<report::Report> run_check_gate(const CheckGateRequest& request, const config::Config& config,
                                      const Invocation& invocation, Context& context);

}  // namespace kforecast::cli
