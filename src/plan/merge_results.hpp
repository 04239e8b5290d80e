// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast report --merge PLAN RESULTS...`: the plan's run completed with the shards' results
// by the same step pr measures with (gate/measure_step.hpp: riskiest first, the GPU budget, each
// measurement's verdict, policy.on_unverified for what was not measured). A kernel no results
// file covers is unverified, by name; a results file from another plan is refused.

#include <string>
#include <vector>

#include "base/error.hpp"
#include "gate/kernel_case.hpp"
#include "gate/measure_step.hpp"
#include "plan/plan_file.hpp"
#include "plan/shard_results.hpp"

namespace kforecast::plan {

// `hash`: the plan's (plan_hash of its text); `plan_path` and `result_paths` name the files in
// messages, and the results are read from `result_paths`.
Result<gate::GateRun> merge_results(const Plan& plan, const std::string& hash, const std::string& plan_path,
                              const std::vector<std::string>& result_paths, const gate::MeasureSettings& settings);

}  // namespace kforecast::plan
