// SPDX-License-Identifier: Apache-2.0
#pragma once

// The seam every command forecasts through. A Forecaster takes changed kernels as
// ForecastRequests and gives one KernelForecast per request, in order; it never writes a report.
// The embedded and LLM forecasters implement it (forecasters/embedded_forecaster.hpp,
// forecasters/llm_forecaster.hpp) and FallbackForecaster composes two (forecast.fallback). A new
// forecaster is a new file here and a line where cli wires the configured one, not a branch in
// every command.

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "embedded/labelled_pairs.hpp"
#include "embedded/pair_features.hpp"
#include "llm/prompt_set.hpp"
#include "report/report.hpp"

namespace kforecast::forecasters {

// What only a prompt reads about a kernel pair. It is built on demand because the compiler facts
// are NVRTC compiles and the launch text evaluates launch specs: a run that asks no LLM should
// not pay for either.
struct PromptExtras {
  std::string launch_text;               // the launch in words; "" when no launch spec gives it
  std::string reference_compiler_facts;  // "" when there are none
  std::string candidate_compiler_facts;
  std::string candidate_raw;       // the candidate's text as written (comments kept), for steering markers
  std::vector<std::string> notes;  // for the kernel's report entry: what the prompt had to go without
};

// One changed kernel present at both revisions, as the forecasters read it.
struct ForecastRequest {
  embedded::KernelText reference;               // each side's text, the kernel's name there, its launch geometry
  embedded::KernelText candidate;               // the candidate's name is the kernel's name in a prompt
  std::function<PromptExtras()> prompt_extras;  // empty: a prompt gets none
  // What the gate found changed beyond the kernel's own text, one line each: declarations,
  // headers, launch sites and template arguments it reaches, and how its machine code changed as
  // the project builds it ("machine code differs for sm_90: registers 12 → 13; ..."). A prompt
  // shows them; empty: nothing beyond the text is known.
  std::vector<std::string> changes;
  // Both sides read the same to the embedded model (text, name and launch geometry): what changed
  // lies outside what it reads, so it gives a wide forecast that says why
  // (unseen_change_distribution), where a forecast from the text alone would say "no change".
  bool text_unchanged = false;
};

// One kernel's outcome.
struct KernelForecast {
  std::optional<report::ForecastEntry> forecast;  // nullopt: no forecast, so the kernel is unsure
  // Set when this forecaster gave no forecast of its own: why (for the LLM, the endpoint's error
  // with the key redacted), and the note that tells the reader so and what happens instead. A
  // fallback's forecast may stand in even so (ForecastEntry::fallback_for says for what).
  std::string failure;
  std::string failure_note;
  std::vector<std::string> notes;  // further notes for the kernel's report entry
};

struct ForecastRun {
  std::vector<KernelForecast> kernels;  // one per request, in request order
  std::vector<std::string> notes;       // for the report's run notes
};

class Forecaster {
 public:
  virtual ~Forecaster() = default;

  // The report's name for this forecaster ("embedded", "llm"); a fallback forecast names the
  // forecaster it stands in for with it.
  virtual std::string_view name() const = 0;

  // Errors only for a problem found before any kernel is forecast (a prompt that cannot be
  // built); one kernel's failure is a KernelForecast without a forecast.
  virtual Result<ForecastRun> forecast(std::span<const ForecastRequest> requests) const = 0;
};

// Builds the forecaster once there is something to forecast, so a run with nothing to forecast
// reaches no endpoint and loads no libcurl. `features`: what the embedded forecaster reads beside
// the texts; `prompts` set: the LLM forecaster was asked for; `prompt_notes`: what the prompts had
// to go without (launch specs that could not be read). Errors for an LLM that is not configured.
using ForecasterFactory = std::function<Result<std::unique_ptr<Forecaster>>(
    const embedded::FeatureContext& features, std::optional<llm::PromptSet> prompts,
    std::vector<std::string> prompt_notes)>;

}  // namespace kforecast::forecasters
