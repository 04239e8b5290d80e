// SPDX-License-Identifier: Apache-2.0
#pragma once

// The plan `kforecast pr --plan FILE` writes on a CPU runner and `kforecast bench --plan` and
// `kforecast report --merge` read on other runners (docs/ci/plan.md gives the schema): the
// report as the policy left it, the config the gate was decided under, and each kernel that
// needs a GPU with both texts to measure, riskiest first. Everything a later job needs, so it
// runs neither git nor a forecaster again.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "config/config.hpp"
#include "gate/pr_bench.hpp"
#include "report/report.hpp"

namespace kforecast::gate {

// 2: each distinct file text once, in `texts`, named by index from the jobs.
inline constexpr int plan_schema_version = 2;

struct Plan {
  std::string kforecast_version;
  std::string config_name;              // where the config came from, for its error messages
  std::string config_text;              // the config pr decided under (the base revision's)
  std::string ledger;                   // policy.ledger as pr resolved it
  bool no_bench = false;                // --no-bench was given to pr --plan
  std::size_t shards = 0;               // the suggested job matrix size; 0 when nothing needs a GPU
  report::Report report;                // as the policy left it; gpu_time unset
  std::vector<std::size_t> to_measure;  // report.kernels indices, in apply_policy's (report) order
  std::vector<MeasureJob> jobs;         // riskiest first (measurement_order); shard k/n takes every n-th
};

// The plan's text. Numbers are written to round-trip exactly, so a merged report is the report
// pr would have written.
std::string plan_json(const Plan& plan);

// Reads plan_json's output; `name` (the file) is named in every error.
Result<Plan> parse_plan_json(std::string_view text, std::string_view name);

// The plan's config with this runner's environment applied, as pr applied its own.
Result<config::Config> plan_config(const Plan& plan, const EnvLookup& env);

// The identity of a plan's text, which each results file carries (a results file from another
// plan is refused).
std::string plan_hash(std::string_view text);

// The jobs shard `index` of `count` (1-based) measures: positions index-1, index-1+count, ...
std::vector<MeasureJob> shard_jobs(const Plan& plan, std::size_t index, std::size_t count);

}  // namespace kforecast::gate
