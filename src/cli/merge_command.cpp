// SPDX-License-Identifier: Apache-2.0
// `kforecast report --merge PLAN RESULTS...` (any runner): the plan's report completed with the
// shards' results (plan/merge_results.hpp), then written and posted as pr writes and posts it.
// The plan is data (plan/plan_config.hpp): this job's own config decides everything but judgement.

#include "cli/handlers.hpp"
#include "cli/report_output.hpp"
#include "plan/merge_results.hpp"
#include "plan/plan_config.hpp"
#include "plan/plan_file.hpp"

namespace kforecast::cli {

Result<ExitCode> report_command(const Invocation& invocation, Context& context) {
  if (!invocation.has("--merge"))
    return usage_error("'kforecast report' needs --merge PLAN RESULTS...; see 'kforecast help report'");
  auto own = load_command_config(invocation, context);
  if (!own) return std::unexpected(own.error());
  const std::string plan_path = invocation.value("--merge");
  auto plan = plan::read_plan_file(plan_path, plan::plan_limits(*own));
  if (!plan) return std::unexpected(plan.error());
  auto config = plan::plan_config(plan->plan, plan_path, *own, context.env);
  if (!config) return std::unexpected(config.error());
  auto run = plan::merge_results(plan->plan, plan->hash, plan_path, invocation.positional,
                                 gate::measure_settings(*config));
  if (!run) return std::unexpected(run.error());
  return deliver_report(gate::build_report(*run), *config, invocation, context);
}

}  // namespace kforecast::cli
