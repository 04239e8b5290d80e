// SPDX-License-Identifier: Apache-2.0
#include "plan/merge_results.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "base/text_file.hpp"
#include "gate/pr_bench.hpp"

namespace kforecast::plan {
namespace {

struct Collected {
  std::map<std::size_t, KernelResult> by_entry;
  std::string note;  // the note every shard with kernels gave, where they agree ("no GPU")
};

Result<Collected> collect_results(const Plan& plan, const std::string& hash, const std::string& plan_path,
                                  const std::vector<std::string>& paths) {
  Collected collected;
  std::vector<std::string> notes;
  for (const auto& path : paths) {
    auto text = read_text_file(path, "results file");
    if (!text) return std::unexpected(text.error());
    auto results = parse_results_json(*text, path);
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

Result<gate::GateRun> merge_results(const Plan& plan, const std::string& hash, const std::string& plan_path,
                              const std::vector<std::string>& result_paths, const gate::MeasureSettings& settings) {
  auto collected = collect_results(plan, hash, plan_path, result_paths);
  if (!collected) return std::unexpected(collected.error());
  gate::GateRun run = gate::run_of(plan.report);
  if (plan.to_measure.empty()) {
    run.gpu_time = gate::gpu_time(run.cases, {}, "");
  } else {
    const gate::MeasureKernel recorded = [&](std::size_t entry) -> Result<bench::Measurement> {
      const auto found = collected->by_entry.find(entry);
      if (found == collected->by_entry.end()) {
        const auto position = std::ranges::find(plan.jobs, entry, &gate::MeasureJob::entry) - plan.jobs.begin();
        return usage_error(fmt::format(
            "no results for it: give report --merge the results of the shard that measures it (position {} of the "
            "plan's {} kernels: shard {} of {} with the suggested {} shards)",
            position + 1, plan.jobs.size(), position % std::max<std::size_t>(plan.shards, 1) + 1,
            std::max<std::size_t>(plan.shards, 1), plan.shards));
      }
      if (found->second.measurement) return *found->second.measurement;
      return usage_error(found->second.unmeasured_reason);
    };
    const gate::MeasureOutcome outcome = measure_kernels(run.cases, plan.to_measure, settings, recorded);
    run.gpu_time = gate::gpu_time(run.cases, outcome, outcome.measured == 0 ? collected->note : "");
    if (outcome.measured > 0)
      run.notes.push_back(fmt::format("measured {} kernel{} on the GPU; ledger: {}", outcome.measured,
                                      outcome.measured == 1 ? "" : "s", plan.ledger));
  }
  return run;
}

}  // namespace kforecast::plan
