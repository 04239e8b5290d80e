// SPDX-License-Identifier: Apache-2.0
// `kforecast report --merge PLAN RESULTS...` (any runner): the plan's report completed with the
// shards' results by the same step pr measures with (cli/measure_step.hpp: riskiest first, the
// GPU budget, each measurement's verdict, policy.on_unverified for what was not measured), then
// written and posted as pr writes and posts it. A kernel no results file covers is unverified,
// by name; a results file from another plan is refused.

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "base/text_file.hpp"
#include "cli/handlers.hpp"
#include "gate/measure_step.hpp"
#include "gate/plan_file.hpp"
#include "gate/pr_bench.hpp"
#include "cli/report_output.hpp"
#include "gate/shard_results.hpp"

namespace kforecast::cli {
namespace {

struct Collected {
  std::map<std::size_t, gate::KernelResult> by_entry;
  std::string note;  // the note every shard with kernels gave, where they agree ("no GPU")
};

Result<Collected> collect_results(const gate::Plan& plan, const std::string& hash, const std::string& plan_path,
                                  const std::vector<std::string>& paths) {
  Collected collected;
  std::vector<std::string> notes;
  for (const auto& path : paths) {
    auto text = read_text_file(path, "results file");
    if (!text) return std::unexpected(text.error());
    auto results = gate::parse_results_json(*text, path);
    if (!results) return std::unexpected(results.error());
    if (results->plan_hash != hash)
      return usage_error(fmt::format(
          "{}: these results belong to another plan (plan {}, but {} is {}): merge each run's results with the "
          "plan they were measured from",
          path, results->plan_hash, plan_path, hash));
    // An empty shard (more shards than kernels) measured nothing and says nothing about why.
    if (!results->kernels.empty()) notes.push_back(results->note);
    for (auto& kernel : results->kernels) {
      if (std::ranges::find(plan.jobs, kernel.entry, &gate::MeasureJob::entry) == plan.jobs.end())
        return usage_error(fmt::format("{}: kernel id {} is not one the plan sends to a GPU", path, kernel.entry));
      if (collected.by_entry.contains(kernel.entry))
        return usage_error(fmt::format("{}: kernel {} ({}) is in two results files; give each shard's results once",
                                       path, kernel.entry, plan.report.kernels[kernel.entry].name));
      collected.by_entry.emplace(kernel.entry, std::move(kernel));
    }
  }
  if (!notes.empty() && std::ranges::all_of(notes, [&](const std::string& note) { return note == notes.front(); }))
    collected.note = notes.front();
  return collected;
}

}  // namespace

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
  auto collected = collect_results(*plan, gate::plan_hash(*text), plan_path, invocation.positional);
  if (!collected) return std::unexpected(collected.error());

  gate::GateRun run = gate::run_of(plan->report);
  const gate::MeasureSettings settings = gate::measure_settings(*config);
  if (plan->to_measure.empty()) {
    run.gpu_time = gate::gpu_time(run.cases, {}, "");
  } else {
    const gate::MeasureKernel recorded = [&](std::size_t entry) -> Result<bench::Measurement> {
      const auto found = collected->by_entry.find(entry);
      if (found == collected->by_entry.end()) {
        const auto position = std::ranges::find(plan->jobs, entry, &gate::MeasureJob::entry) - plan->jobs.begin();
        return usage_error(fmt::format(
            "no results for it: give report --merge the results of the shard that measures it (position {} of the "
            "plan's {} kernels: shard {} of {} with the suggested {} shards)",
            position + 1, plan->jobs.size(), position % std::max<std::size_t>(plan->shards, 1) + 1,
            std::max<std::size_t>(plan->shards, 1), plan->shards));
      }
      if (found->second.measurement) return *found->second.measurement;
      return usage_error(found->second.unmeasured_reason);
    };
    const gate::MeasureOutcome outcome = gate::measure_kernels(run.cases, plan->to_measure, settings, recorded);
    run.gpu_time = gate::gpu_time(run.cases, outcome, outcome.measured == 0 ? collected->note : "");
    if (outcome.measured > 0)
      run.notes.push_back(fmt::format("measured {} kernel{} on the GPU; ledger: {}", outcome.measured,
                                         outcome.measured == 1 ? "" : "s", plan->ledger));
  }
  return deliver_report(gate::build_report(run), *config, invocation, context);
}

}  // namespace kforecast::cli
