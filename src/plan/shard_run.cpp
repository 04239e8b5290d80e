// SPDX-License-Identifier: Apache-2.0
#include "plan/shard_run.hpp"

#include <map>
#include <ostream>

#include <fmt/format.h>

#include "gate/head_code_policy.hpp"
#include "gate/pr_bench.hpp"
#include "kforecast_version.hpp"

namespace kforecast::plan {

ShardResults measure_shard(const Plan& plan, std::string hash, std::size_t index, std::size_t count,
                           const gate::Settings& settings, const git::ChangeAuthor& author, gate::Outside& outside) {
  ShardResults results;
  results.kforecast_version = std::string(kforecast::version);
  results.plan_hash = std::move(hash);
  results.shard = index;
  results.shards = count;
  results.started = outside.now();
  const auto jobs = shard_jobs(plan, index, count);
  // The shard's own copy of the report: measure_jobs_in_pr decides on it as pr would; only the
  // outcomes are kept, and report --merge decides again over every shard's.
  gate::GateRun scratch = gate::run_of(plan.report);
  std::map<std::size_t, KernelResult> outcomes;
  const gate::MeasureObserver observe = [&](std::size_t entry, const Result<bench::Measurement>& outcome) {
    KernelResult result{entry, std::nullopt, ""};
    if (outcome) {
      result.measurement = *outcome;
      if (results.gpu.empty()) results.gpu = outcome->gpu, results.driver = outcome->driver;
    } else {
      result.unmeasured_reason = outcome.error().message;
    }
    outcomes[entry] = std::move(result);
  };
  // policy.ledger, relative to this job's working directory (the checkout's root).
  const std::filesystem::path ledger = settings.config.string_value("policy.ledger");
  const gate::HeadCodePolicy head_code = gate::head_code_policy(author, outside.sandbox);
  if (!head_code.runs)
    outside.console.warnings << "kforecast: warning: " << report::warning_text(head_code.refusal) << "\n";
  // The merged report has no warning of this job's to refer to: each kernel's reason says it all.
  const gate::NoBench no_bench = head_code.runs ? gate::NoBench{plan.no_bench}
                                          : gate::NoBench{true, report::warning_text(head_code.refusal), head_code.no_bench().note};
  gate::measure_jobs_in_pr(scratch, jobs, ledger, no_bench, settings, outside, observe);
  if (scratch.gpu_time) results.note = scratch.gpu_time->note;
  for (const auto& job : jobs) {
    auto found = outcomes.find(job.entry);
    if (found != outcomes.end()) {
      results.kernels.push_back(std::move(found->second));
      continue;
    }
    // measure_kernels passed it over: this shard's share of policy.gpu_budget_seconds was spent.
    results.kernels.push_back(
        {job.entry, std::nullopt,
         fmt::format("the GPU budget is spent on shard {}/{} (policy.gpu_budget_seconds = {:g}; "
                     "riskier kernels were measured first)",
                     index, count, settings.measure.budget_seconds)});
  }
  results.finished = outside.now();
  return results;
}

}  // namespace kforecast::plan
