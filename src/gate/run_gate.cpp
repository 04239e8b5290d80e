// SPDX-License-Identifier: Apache-2.0
#include "gate/run_gate.hpp"

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include "gate/change_review.hpp"
#include "gate/head_code_policy.hpp"
#include "kforecast_version.hpp"

namespace kforecast::gate {
namespace {

bool unchanged(const kernel_changes::ChangedKernel& kernel) {
  return kernel.reasons.size() == 1 && kernel.reasons.front().starts_with("no source change");
}

// Without NVRTC the identical-code tier cannot settle a kernel; one whose source, and everything
// it reaches, reads the same at both sides is settled all the same (nothing to forecast).
void settle_unchanged(GateRun& run, std::vector<std::size_t>& to_measure) {
  for (std::size_t i = 0; i < run.cases.size(); ++i) {
    auto& entry = run.cases[i].entry;
    const kernel_changes::ChangedKernel& kernel = run.cases[i].kernel;
    if (!unchanged(kernel) || entry.decision == report::Decision::identical_code) continue;
    entry.decision = report::Decision::identical_code;
    entry.verdict = report::KernelVerdict::pass;
    entry.forecast.reset();
    entry.unverified = false;
    entry.notes = {kernel.reasons.front(),
                   "the kernel and everything it reaches read the same (machine code not compared): speedup 1"};
    std::erase(to_measure, i);
  }
}

// A run that reached its wall budget says so in the report's first line: the kernels it left are
// unverified for that reason, not for anything about them.
void warn_of_spent_deadline(GateRun& run, const RunDeadline& deadline, std::ostream& err) {
  if (!deadline.passed()) return;
  const std::string reason = deadline.reason();
  const auto left = std::ranges::count_if(run.cases, [&](const KernelCase& kernel) {
    return std::ranges::any_of(kernel.entry.notes,
                               [&](const std::string& note) { return note.find(reason) != std::string::npos; });
  });
  if (left == 0) return;
  report::RunWarning warning{
      fmt::format("{}: {} kernel{} left unjudged", reason, left, left == 1 ? "" : "s"),
      "each kernel's notes say at which step it stopped; raise run.budget_seconds, or run again: the compiles "
      "finished this time are answered by the unit cache"};
  err << "kforecast: warning: " << report::warning_text(warning) << "\n";
  run.warnings.push_back(std::move(warning));
}

}  // namespace

Result<GateResult> run_gate(GateInputs inputs, const Settings& settings, Outside& outside, GateStop stop) {
  GateResult result{
      {std::string(kforecast::version), inputs.base, inputs.head, {}, {inputs.target_note}, {}, {}}, {}};
  GateRun& run = result.run;
  const HeadCodePolicy head_code = head_code_policy(inputs.author, outside.sandbox);
  if (!head_code.runs) {
    outside.console.warnings << "kforecast: warning: " << report::warning_text(head_code.refusal) << "\n";
    run.warnings.push_back(head_code.refusal);
  } else if (!head_code.unconfined_note.empty()) {
    run.notes.push_back(head_code.unconfined_note);
  }
  auto to_measure = review_changed_kernels(
      run,
      {inputs.base_sources, inputs.head_sources, inputs.analysis, std::move(inputs.prompts), inputs.context_notes,
       inputs.author, head_code.runs},
      settings, outside);
  if (!to_measure) return std::unexpected(to_measure.error());
  result.to_measure = std::move(*to_measure);
  if (inputs.settle_unchanged) settle_unchanged(run, result.to_measure);
  if (inputs.measure_trusted) {
    for (std::size_t i = 0; i < run.cases.size(); ++i)
      if (run.cases[i].entry.decision == report::Decision::trusted_forecast) result.to_measure.push_back(i);
    std::ranges::sort(result.to_measure);
  }
  if (stop == GateStop::after_policy) {
    warn_of_spent_deadline(run, outside.deadline, outside.console.warnings);
    return result;
  }
  measure_in_pr(run, result.to_measure,
                {inputs.base_sources, inputs.head_sources, settings.ledger,
                 head_code.runs ? inputs.no_bench : head_code.no_bench(), inputs.observe},
                settings,
                outside);
  warn_of_spent_deadline(run, outside.deadline, outside.console.warnings);
  return result;
}

}  // namespace kforecast::gate
