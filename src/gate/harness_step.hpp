// SPDX-License-Identifier: Apache-2.0
#pragma once

// The measuring step's branch for the project's own benchmark harness (docs/harness.md): a
// changed kernel the policy sent to measurement, with no launch spec at either side, that a
// [[harness.map]] of the config names, is measured by running the project's benchmarks at both
// revisions (harness/harness_measure.hpp) instead of kforecast's runner; every other kernel goes
// on to the GPU path unchanged. The measurement is the runner's bench::Measurement, so it is
// decided, reported and written to the ledger as the runner's is. The harness is the base
// revision's config's (pr reads the config there), never the head's.

#include <cstddef>
#include <filesystem>
#include <span>
#include <vector>

#include "gate/kernel_case.hpp"
#include "gate/measure_step.hpp"
#include "gate/outside.hpp"
#include "gate/pr_bench.hpp"
#include "gate/settings.hpp"

namespace kforecast::gate {

struct HarnessOutcome {
  MeasureOutcome outcome;         // the harness's measurements (its run time counts as GPU time)
  std::vector<MeasureJob> others;  // the jobs left for the GPU path, in their order
};

// Measures the jobs a harness takes and applies each result to its case (a failure to build,
// run or read the harness leaves the kernel unverified with the reason); returns the rest.
// `observe` as measure_jobs_in_pr's.
HarnessOutcome measure_through_harness(GateRun& run, std::span<const MeasureJob> jobs,
                                       const std::filesystem::path& ledger, const Settings& settings,
                                       Outside& outside, const MeasureObserver& observe);

// Whether either side of `job` has a launch spec (a `// kforecast:` block or a [[kernel]] table
// of `config`), so kforecast's own runner measures it.
bool has_launch_spec(const MeasureJob& job, const config::Config& config);

}  // namespace kforecast::gate
