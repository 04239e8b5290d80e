// SPDX-License-Identifier: Apache-2.0
#pragma once

// The gate over the changed kernels of two scanned revisions: the
// identical-code tier, the forecast, the policy, and the measurement of what the policy sends to
// the GPU, each kernel a KernelCase (gate/kernel_case.hpp). `kforecast pr` and `kforecast check`
// run it; `pr --plan` stops it after the policy and hands the rest to GPU jobs.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "gate/kernel_case.hpp"
#include "gate/outside.hpp"
#include "gate/pr_bench.hpp"
#include "gate/settings.hpp"
#include "git/change_author.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"
#include "llm/kernel_prompt.hpp"

namespace kforecast::gate {

struct GateInputs {
  std::string base;  // the revisions as the report names them
  std::string head;
  std::string target_note;  // the run's first note: which revisions or files were compared
  const kernels::RevisionSources& base_sources;
  const kernels::RevisionSources& head_sources;
  const kernel_changes::ChangeAnalysis& analysis;
  std::optional<llm::PromptSet> prompts;        // set: the LLM forecaster (checked by the caller)
  std::span<const std::string> context_notes;   // run notes after the target's (the diff's)
  git::ChangeAuthor author;
  NoBench no_bench;
  // check: a kernel whose source and everything it reaches read the same is settled without a
  // compiler, and --bench measures trusted forecasts too (the user asked for the measurement).
  bool settle_unchanged = false;
  bool measure_trusted = false;
  MeasureObserver observe = {};  // bench: hears the measurement it prints
};

enum class GateStop { after_measuring, after_policy };

struct GateResult {
  GateRun run;
  std::vector<std::size_t> to_measure;  // the cases sent to the GPU, in case order
};

// Walks the tiers over every changed kernel. Stopped after the policy, nothing is measured and
// the run has no GPU time. Errors only for a configuration problem of the LLM forecaster found
// before any request.
Result<GateResult> run_gate(GateInputs inputs, const Settings& settings, Outside& outside,
                            GateStop stop = GateStop::after_measuring);

}  // namespace kforecast::gate
