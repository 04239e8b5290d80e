// SPDX-License-Identifier: Apache-2.0
#pragma once

// The middle of the gate, shared by `kforecast pr` and `kforecast check`: given two scanned
// revisions and the changed kernels between them, the identical-machine-code tier (NVRTC, where
// installed), the forecast of every kernel it did not settle (through the Outside's forecaster),
// and the policy. What each caller does around it differs: where the revisions come from, whether
// and what it measures (gate/pr_bench.hpp).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "gate/kernel_case.hpp"
#include "gate/outside.hpp"
#include "gate/settings.hpp"
#include "git/change_author.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"
#include "llm/kernel_prompt.hpp"

namespace kforecast::gate {

// cuda.arch, with "auto" meaning the first local GPU's architecture, else sm_90 (the H100, the
// GPU the forecasters are trained for), and a note that says which was taken and why.
std::pair<std::string, std::string> target_arch(const Settings& settings, const Outside& outside);

struct ReviewInputs {
  const kernels::RevisionSources& base;
  const kernels::RevisionSources& head;
  // The scan's changed kernels; the kernels whose machine code changed where the scan reported
  // none (builds/unreported_kernels.hpp) join them in the run's cases.
  const kernel_changes::ChangeAnalysis& analysis;
  std::optional<llm::PromptSet> prompts;       // set: the LLM forecaster (checked by the caller)
  std::span<const std::string> context_notes;  // run notes placed after the target's (the diff's)
  // Who wrote the change: an untrusted author's kernel is not passed on an LLM forecast alone.
  git::ChangeAuthor author;
  // false: neither revision is compiled (gate/head_code_policy.hpp): no machine code is compared,
  // and the forecasters read source alone.
  bool compile = true;
};

// Appends one case per changed kernel to `run` (and run notes: the target, the comment-only
// kernels, launch specs that could not be read), settles what the identical-code tier settles,
// forecasts the rest and applies the policy. Returns the cases the policy sends to the GPU.
// A forecaster that failed for any kernel is a run warning, also said on `outside.console.warnings`.
// Errors only for a configuration problem of the LLM forecaster found before any request.
Result<std::vector<std::size_t>> review_changed_kernels(GateRun& run, ReviewInputs inputs, const Settings& settings,
                                                        Outside& outside);

}  // namespace kforecast::gate
