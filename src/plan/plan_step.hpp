// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast pr --plan FILE` (a CPU runner): the report as the policy left it and every kernel
// that needs a GPU, written as a plan (plan/plan_file.hpp) for `kforecast bench --plan` on GPU
// runners and `kforecast report --merge` after them. In GitHub Actions the step's outputs say
// whether any GPU job is needed (needs_gpu, shards, matrix, verdict_so_far) and the step summary
// what they will measure (report/step_files.hpp).

#include <cstddef>
#include <iosfwd>
#include <span>
#include <string>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "config/config.hpp"
#include "gate/kernel_case.hpp"
#include "gate/pr_bench.hpp"
#include "report/report.hpp"

namespace kforecast::plan {

// The suggested number of GPU jobs for `kernels` kernels to measure: one each, at most 4.
std::size_t suggested_shards(std::size_t kernels);

// Writes the plan to `path` and the step outputs. Exit 0 once the plan is written, even when a
// kernel has already failed (a head that no longer compiles): the verdict is report --merge's,
// and the merge job must run to report it (verdict_so_far says it early).
Result<ExitCode> write_plan(const gate::GateRun& run, std::span<const std::size_t> to_measure,
                            const gate::PrBenchInputs& inputs, const config::Config& config, const std::string& path,
                            const EnvLookup& env, std::ostream& err);

}  // namespace kforecast::plan
