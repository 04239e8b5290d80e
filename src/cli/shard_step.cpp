// SPDX-License-Identifier: Apache-2.0
#include "cli/shard_step.hpp"

#include <fstream>

#include <fmt/format.h>

#include "base/redaction.hpp"
#include "cli/command_progress.hpp"
#include "cli/gate_outside.hpp"
#include "cli/handlers.hpp"
#include "cli/options.hpp"
#include "config/config.hpp"
#include "plan/plan_config.hpp"
#include "plan/plan_file.hpp"
#include "gate/settings.hpp"
#include "plan/shard_run.hpp"
#include "git/change_author.hpp"

namespace kforecast::cli {
namespace {

Result<std::pair<std::size_t, std::size_t>> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  const auto index = whole_number<std::size_t>(text.substr(0, slash));
  const auto count = whole_number<std::size_t>(slash == std::string_view::npos ? "" : text.substr(slash + 1));
  if (!index || !count || *count == 0 || *index == 0 || *index > *count || *count > 10000)
    return usage_error(fmt::format("--shard {}: expected I/N with 1 <= I <= N, e.g. --shard 1/2", text));
  return std::pair{*index, *count};
}

}  // namespace

Result<ExitCode> bench_shard_command(const Invocation& invocation, Context& context) {
  if (!invocation.positional.empty() || invocation.has("--vs") || invocation.has("--against"))
    return usage_error(
        "'kforecast bench --plan PLAN --shard I/N' takes no FILE:KERNEL, --vs or --against: the "
        "kernels come from the plan");
  if (!invocation.has("--shard")) return usage_error("--plan needs --shard I/N (e.g. --shard 1/1 for all of it)");
  auto shard = parse_shard(invocation.value("--shard"));
  if (!shard) return std::unexpected(shard.error());
  // The plan is data (plan/plan_config.hpp): what loads a library, runs a program or names a file
  // is this job's own config's, read before the plan.
  auto own = load_command_config(invocation, context);
  if (!own) return std::unexpected(own.error());
  const std::string plan_path = invocation.value("--plan");
  auto plan = plan::read_plan_file(plan_path, plan::plan_limits(*own));
  if (!plan) return std::unexpected(plan.error());
  auto config = plan::plan_config(plan->plan, plan_path, *own, context.env);
  if (!config) return std::unexpected(config.error());

  CommandProgress progress(invocation, context);
  const gate::Settings settings = gate::read_settings(*config, {});
  RealOutside real(*config, context);
  gate::Outside& outside = real.outside();
  const plan::ShardResults results =
      plan::measure_shard(plan->plan, plan->hash, shard->first, shard->second, settings,
                          git::change_author(context.env), outside);
  progress->finish();

  const std::string json = redact_secrets(plan::results_json(results));
  if (invocation.has("--output")) {
    std::ofstream out(invocation.value("--output"), std::ios::binary);
    if (!out || !(out << json) || !out.flush())
      return fail(ExitCode::could_not_run, fmt::format("cannot write '{}'", invocation.value("--output")));
  } else {
    context.out << json;
  }
  std::size_t measured = 0;
  for (const auto& kernel : results.kernels) measured += kernel.measurement ? 1 : 0;
  context.err << fmt::format("kforecast: shard {}/{}: {} kernel{}, {} measured{}\n", shard->first, shard->second,
                             results.kernels.size(), results.kernels.size() == 1 ? "" : "s", measured,
                             results.note.empty() ? "" : " (" + results.note + ")");
  return ExitCode::pass;
}

}  // namespace kforecast::cli
