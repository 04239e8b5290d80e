// SPDX-License-Identifier: Apache-2.0
#pragma once

// The forecast tier: every changed kernel the identical-code tier did not settle is forecast
// through the Outside's forecaster (the embedded one, or the LLM's), a batch at a time within the
// run's wall budget. A kernel whose two sides read the same to a forecaster is not forecast; a
// forecaster that failed is a run warning; an untrusted author's kernel that an LLM forecast
// alone would pass also gets the embedded forecaster's opinion (gate/kernel_policy.hpp).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "cuda/compiler.hpp"
#include "gate/kernel_case.hpp"
#include "gate/outside.hpp"
#include "gate/settings.hpp"
#include "git/change_author.hpp"
#include "kernels/revision_sources.hpp"
#include "llm/prompt_set.hpp"

namespace kforecast::gate {

struct ForecastStepInputs {
  const kernels::RevisionSources& base;
  const kernels::RevisionSources& head;
  std::optional<llm::PromptSet> prompts;  // set: the LLM forecaster (checked by the caller)
  git::ChangeAuthor author;
  const cuda::Compiler* compiler = nullptr;  // NVRTC, for compiler facts; nullptr: none
  std::string arch;                          // the target the facts are for
};

// Forecasts the cases at `to_forecast` (indices into run.cases) into their entries, with run
// notes and warnings. Errors only for a configuration problem of the LLM forecaster found before
// any request.
Result<void> forecast_cases(GateRun& run, std::vector<std::size_t> to_forecast, ForecastStepInputs inputs,
                            const Settings& settings, Outside& outside);

}  // namespace kforecast::gate
