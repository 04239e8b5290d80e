// SPDX-License-Identifier: Apache-2.0
#pragma once

// The middle of the gate, shared by `kforecast pr` and `kforecast check`: given two scanned
// revisions and the changed kernels between them, the identical-machine-code tier (NVRTC, where
// installed), the forecast of every kernel it did not settle (embedded, or the LLM), and the
// policy. What each caller does around it differs: where the revisions come from, whether and
// what it measures (cli/pr_bench.hpp), how it writes the report.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/error.hpp"
#include "cli/command.hpp"
#include "config/config.hpp"
#include "git/change_author.hpp"
#include "kernels/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"
#include "llm/kernel_prompt.hpp"
#include "report/report.hpp"

namespace kforecast::cli {

// cuda.arch, with "auto" meaning the first local GPU's architecture, else sm_90 (the H100, the
// GPU the forecasters are trained for), and a note that says which was taken and why.
std::pair<std::string, std::string> target_arch(const config::Config& config);

// Where CUDA's own headers are ($CUDA_HOME, $CUDA_PATH, /usr/local/cuda), or "".
std::string cuda_include_dir(const EnvLookup& env);

// Which forecaster runs: --forecaster, else forecast.forecaster (KFORECAST_FORECASTER). True: the LLM.
Result<bool> use_llm_forecaster(const Invocation& invocation, const config::Config& config);

// policy.ledger, relative to the config file's directory, else to `repository_root`: where
// `kforecast calibration` looks.
std::filesystem::path ledger_path(const config::Config& config, const std::filesystem::path& repository_root);

struct ReviewInputs {
  const kernels::RevisionSources& base;
  const kernels::RevisionSources& head;
  const kernels::ChangeAnalysis& analysis;  // report.kernels[i] will be analysis.kernels[i]
  const config::Config& config;
  std::optional<llm::PromptSet> prompts;       // set: the LLM forecaster (checked by the caller)
  std::span<const std::string> context_notes;  // run notes placed after the target's (the diff's)
  // Who wrote the change: an untrusted author's kernel is not passed on an LLM forecast alone.
  git::ChangeAuthor author;
};

// Appends one entry per changed kernel to `report` (and run notes: the target, the comment-only
// kernels, launch specs that could not be read), settles what the identical-code tier settles,
// forecasts the rest and applies the policy. Returns the entries the policy sends to the GPU.
// A forecaster that failed for any kernel is a report warning, also said on `context.err`.
// Errors only for a configuration problem of the LLM forecaster found before any request.
Result<std::vector<std::size_t>> review_changed_kernels(report::Report& report, ReviewInputs inputs, Context& context);

}  // namespace kforecast::cli
