// SPDX-License-Identifier: Apache-2.0
// `kforecast report --merge PLAN RESULTS...` (any runner): the plan's report completed with the
// shards' results (gate/merge_results.hpp), then written and posted as pr writes and posts it.

#include "base/text_file.hpp"
#include "cli/handlers.hpp"
#include "cli/report_output.hpp"
#include "gate/merge_results.hpp"
#include "gate/plan_file.hpp"

namespace kforecast::cli {

Result<ExitCode> report_command(const Invocation& invocation, Context& context) {
  if (!invocation.has("--merge"))
    return usage_error("'kforecast report' needs --merge PLAN RESULTS...; see 'kforecast help report'");
  const std::string plan_path = invocation.value("--merge");
  auto text = read_text_file(plan_path, "plan");
  if (!text) return std::unexpected(text.error());
  auto plan = gate::parse_plan_json(*text, plan_path);
  if (!plan) return std::unexpected(plan.error());
  auto config = gate::plan_config(*plan, context.env);
  if (!config) return std::unexpected(config.error());
  auto run = gate::merge_results(*plan, gate::plan_hash(*text), plan_path, invocation.positional,
                                 gate::measure_settings(*config));
  if (!run) return std::unexpected(run.error());
  return deliver_report(gate::build_report(*run), *config, invocation, context);
}

}  // namespace kforecast::cli
