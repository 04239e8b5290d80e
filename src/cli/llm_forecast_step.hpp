// SPDX-License-Identifier: Apache-2.0
#pragma once

// The LLM forecaster in `kforecast pr`: endpoint settings from the config and the environment,
// the prompt set (built in, or overridden from the base revision), then every changed kernel the
// identical-code tier did not settle forecast concurrently, into the report. A failed forecast
// is a null forecast with a note, never a pass; with forecast.fallback = "embedded" the caller
// gives it the embedded forecaster's forecast, labelled as a fallback.

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "cli/forecast_entry.hpp"
#include "config/config.hpp"
#include "git/repository.hpp"
#include "llm/forecast_client.hpp"
#include "llm/gpu_properties.hpp"
#include "llm/kernel_prompt.hpp"
#include "report/report.hpp"

namespace kforecast::cli {

// endpoint.* and the key from the variable endpoint.api_key_env names. An endpoint that is not
// configured is a usage error naming the keys and variables to set.
Result<llm::EndpointSettings> endpoint_settings(const config::Config& config, const EnvLookup& env);

// forecast.hardware looked up in the built-in table.
Result<llm::GpuProperties> target_gpu(const config::Config& config);

// Both of the above, for a command to check before any compile or request, so that a
// misconfigured endpoint or GPU name fails fast.
Result<void> check_llm_settings(const config::Config& config, const EnvLookup& env);

// The built-in prompts, or those of forecast.prompts read at `revision` ("" reads the work tree).
Result<llm::PromptSet> configured_prompts(const config::Config& config, const git::Repository& repository,
                                          const std::string& revision);

struct LlmKernelInput {
  std::size_t entry = 0;  // index into Report::kernels
  llm::KernelPair pair;
  SharedText candidate_raw;        // the candidate's text before comment stripping, for steering markers
  std::vector<std::string> notes;  // for the kernel's report entry (a launch spec left out, ...)
};

struct LlmStepOptions {
  const config::Config& config;
  const EnvLookup& env;
  llm::PromptSet prompts;
  std::ostream* progress = nullptr;  // a terminal for the progress line, or nullptr
  // forecast.fallback = "embedded": a failed kernel's note says the embedded forecaster stands in
  // (the caller runs it on the failures returned).
  bool embedded_fallback = false;
};

// Forecasts every input and writes the outcome into its report entry (forecast or note); returns
// the kernels whose forecast failed (their forecast stays null), each with the endpoint's error.
// Errors only for a configuration problem found before any request.
Result<std::vector<ForecastFailure>> add_llm_forecasts(report::Report& report,
                                                       const std::vector<LlmKernelInput>& inputs,
                                                       const LlmStepOptions& options);

}  // namespace kforecast::cli
