// SPDX-License-Identifier: Apache-2.0
#include "gate/forecast_step.hpp"

#include <algorithm>
#include <iterator>
#include <ostream>

#include <fmt/format.h>

#include "builds/identical_code_step.hpp"
#include "embedded/occupancy.hpp"
#include "forecasters/compiler_facts.hpp"
#include "forecasters/device_unit.hpp"
#include "forecasters/embedded_forecaster.hpp"
#include "forecasters/llm_launch_text.hpp"
#include "gate/kernel_policy.hpp"
#include "policy/trust.hpp"

namespace kforecast::gate {
namespace {

// The text the forecasters read for a kernel at one revision (forecasters/device_unit.hpp), shared by
// every kernel of its file.
SharedText kernel_text(forecasters::DeviceUnits& units, const kernel_changes::KernelSite& site) { return units.text(site); }

// The embedded forecaster's launch features: a side's grid, block and dynamic shared memory.
std::optional<embedded::LaunchGeometry> geometry(const std::optional<bench::ResolvedLaunch>& launch) {
  if (!launch) return std::nullopt;
  embedded::LaunchGeometry geometry;
  for (std::size_t d = 0; d < 3; ++d) {
    geometry.grid[d] = launch->grid[d];
    geometry.block[d] = launch->block[d];
  }
  geometry.shared_bytes = launch->shared_bytes;
  return geometry;
}

// What the gate found changed for a kernel beyond its own text: the change's reasons but the
// text's own, and how its machine code changed (change_review's note).
std::vector<std::string> changes_beyond_text(const KernelCase& kernel_case) {
  std::vector<std::string> changes;
  for (const auto& reason : kernel_case.kernel.reasons)
    if (reason != kernel_changes::own_source_reason) changes.push_back(reason);
  for (const auto& note : kernel_case.entry.notes)
    if (note.starts_with("machine code differs for")) changes.push_back(note);
  return changes;
}

// What a forecaster needs about the changed kernels at `entries`: each side's device-only unit
// (forecasters/device_unit.hpp), its name there and its launch geometry. A prompt's extras are built only
// if an LLM asks: the launch text (the kernel's launch spec, as forecasters/llm_launch_text.hpp shows it)
// and, with a compiler, each side's facts from compiling its unit for `arch` (machine code, so
// ptxas reports resources); templates and kernels NVRTC cannot name simply go without. The
// requests refer to `cases`, `base`, `head`, `config_specs` and `compiler`, which must outlive
// them.
std::vector<forecasters::ForecastRequest> forecast_requests(
    const std::vector<std::size_t>& entries, const std::vector<KernelCase>& cases,
    const kernels::RevisionSources& base, const kernels::RevisionSources& head, const std::string& cuda_include,
    forecasters::DeviceUnits& base_units, forecasters::DeviceUnits& head_units, const cuda::Compiler* compiler, const std::string& arch,
    const std::vector<bench::LaunchSpec>& config_specs) {
  std::vector<forecasters::ForecastRequest> requests;
  for (const std::size_t i : entries) {
    const auto& kernel = cases[i].kernel;
    const auto launches = forecasters::kernel_launches(base, *kernel.base, head, *kernel.head, config_specs);
    forecasters::ForecastRequest request{
        {kernel_text(base_units, *kernel.base), kernel.base->qualified_name, geometry(launches.reference)},
        {kernel_text(head_units, *kernel.head), kernel.head->qualified_name, geometry(launches.candidate)},
        {}};
    request.changes = changes_beyond_text(cases[i]);
    request.prompt_extras = [&base, &head, &config_specs, &kernel, compiler, arch, cuda_include] {
      forecasters::PromptExtras extras;
      auto launch = forecasters::kernel_launch_text(base, *kernel.base, head, *kernel.head, config_specs);
      extras.launch_text = std::move(launch.text);
      extras.notes = std::move(launch.notes);
      extras.candidate_raw = head.files().at(kernel.head->file);
      if (compiler != nullptr) {
        const builds::IdenticalCodeContext unit_context{*compiler, arch, nullptr, cuda_include};
        extras.reference_compiler_facts = forecasters::compiler_facts(*compiler, compile_unit(base, kernel.base->file, unit_context),
                                                         kernel.base->qualified_name, arch);
        extras.candidate_compiler_facts = forecasters::compiler_facts(*compiler, compile_unit(head, kernel.head->file, unit_context),
                                                         kernel.head->qualified_name, arch);
      }
      return extras;
    };
    requests.push_back(std::move(request));
  }
  return requests;
}

bool same_geometry(const std::optional<embedded::LaunchGeometry>& a, const std::optional<embedded::LaunchGeometry>& b) {
  if (!a || !b) return !a && !b;
  return a->grid == b->grid && a->block == b->block && a->shared_bytes == b->shared_bytes;
}

// A kernel whose two sides read the same to a forecaster (same text, name and launch geometry:
// a template argument changed at the launch site, a launch input the forecasters do not see) is
// still forecast, never dropped: the embedded forecaster, which reads only that, gives a wide
// forecast that says so (the kernel is then measured), and a prompt shows what changed instead
// (ForecastRequest::changes).
void mark_unchanged_texts(std::vector<forecasters::ForecastRequest>& requests) {
  for (auto& request : requests)
    request.text_unchanged = request.reference.source == request.candidate.source &&
                             request.reference.kernel == request.candidate.kernel &&
                             same_geometry(request.reference.launch, request.candidate.launch);
}

// What the embedded forecaster reads beside the two texts: the compiler (for NVRTC facts) and the
// target GPU of forecast.hardware, where its table knows it.
embedded::FeatureContext embedded_features(const Settings& settings, const cuda::Compiler* compiler,
                                           const std::string& arch, const embedded::FactsCache* facts_cache) {
  embedded::FeatureContext features{compiler, arch, {}, facts_cache};
  if (auto gpu = embedded::find_gpu(settings.hardware)) features.gpu = *gpu;
  return features;
}

// The forecasts of `requests`, a batch at a time so that the run's wall budget is checked as they
// go (the embedded forecaster compiles each side for its facts: seconds a kernel). The kernels left
// once it has passed get no forecast, and the budget's reason.
Result<forecasters::ForecastRun> forecast_within_deadline(const forecasters::Forecaster& forecaster, std::span<const forecasters::ForecastRequest> requests,
                                             Outside& outside) {
  constexpr std::size_t batch = 16;
  forecasters::ForecastRun run;
  if (outside.console.progress) outside.console.progress->stage("forecasting", requests.size());
  for (std::size_t start = 0; start < requests.size(); start += batch) {
    if (outside.deadline.passed()) {
      for (std::size_t k = start; k < requests.size(); ++k)
        run.kernels.push_back({std::nullopt, {}, {}, {outside.deadline.reason() + ": not forecast"}});
      break;
    }
    auto part = forecaster.forecast(requests.subspan(start, std::min(batch, requests.size() - start)));
    if (!part) return std::unexpected(part.error());
    std::ranges::move(part->kernels, std::back_inserter(run.kernels));
    for (auto& note : part->notes)
      if (std::ranges::find(run.notes, note) == run.notes.end()) run.notes.push_back(std::move(note));
    if (outside.console.progress) outside.console.progress->advance(run.kernels.size());
  }
  return run;
}

// Each kernel's forecast and notes into its case: why its forecaster failed, if it did, then
// what the forecaster noted.
void record_forecasts(GateRun& run, const std::vector<std::size_t>& entries, forecasters::ForecastRun forecasts) {
  for (std::size_t k = 0; k < entries.size(); ++k) {
    report::KernelEntry& entry = run.cases.at(entries[k]).entry;
    forecasters::KernelForecast& kernel = forecasts.kernels.at(k);
    if (!kernel.failure_note.empty()) entry.notes.push_back(std::move(kernel.failure_note));
    for (auto& note : kernel.notes) entry.notes.push_back(std::move(note));
    entry.forecast = std::move(kernel.forecast);
  }
  for (auto& note : forecasts.notes) run.notes.push_back(std::move(note));
}

// A forecaster that failed is never silent: a report warning whose headline the report's first
// line carries, said on standard error too. Nothing when every kernel got its own forecast.
void warn_of_failures(GateRun& gate_run, const forecasters::Forecaster& forecaster, const forecasters::ForecastRun& run, std::ostream& err) {
  std::size_t failed = 0, stood_in = 0;
  const std::string* first = nullptr;
  for (const auto& kernel : run.kernels) {
    if (kernel.failure.empty()) continue;
    ++failed;
    if (kernel.forecast) ++stood_in;
    if (first == nullptr) first = &kernel.failure;
  }
  if (failed == 0) return;
  const std::size_t total = run.kernels.size();
  report::RunWarning warning{
      fmt::format("the {} forecaster failed for {} of {} kernel{}", forecaster.name(), failed, total,
                  total == 1 ? "" : "s"),
      fmt::format("{}{}; {}", *first, failed > 1 ? " (the first failure)" : "",
                  stood_in == failed ? "the embedded forecaster's forecast stood in (forecast.fallback = \"embedded\")"
                  : failed == 1      ? "without a forecast the kernel needs a GPU measurement, and is "
                                       "unverified without one"
                                     : "without a forecast those kernels need a GPU measurement, and "
                                       "are unverified without one")};
  err << "kforecast: warning: " << report::warning_text(warning) << "\n";
  gate_run.warnings.push_back(std::move(warning));
}

}  // namespace

Result<void> forecast_cases(GateRun& run, std::vector<std::size_t> to_forecast, ForecastStepInputs inputs,
                            const Settings& settings, Outside& outside) {
  // Nothing to forecast: no forecaster is built, so no endpoint is reached and libcurl is not loaded.
  const bool prompts_given = inputs.prompts.has_value();
  const std::string& cuda_include = outside.compilers.cuda_include_dir;
  const cuda::Compiler* const compiler_or_null = inputs.compiler;
  const std::string& arch = inputs.arch;
  auto launch_specs = forecasters::config_launch_specs(settings.config);
  forecasters::DeviceUnits base_units(inputs.base, cuda_include), head_units(inputs.head, cuda_include);
  std::vector<forecasters::ForecastRequest> requests;
  if (!to_forecast.empty()) {
    requests = forecast_requests(to_forecast, run.cases, inputs.base, inputs.head, cuda_include, base_units, head_units,
                                 compiler_or_null, arch, launch_specs.specs);
    mark_unchanged_texts(requests);
  }
  if (!requests.empty()) {
    const auto features = embedded_features(settings, compiler_or_null, arch, outside.caches.facts);
    auto forecaster = outside.forecaster(features, std::move(inputs.prompts), std::move(launch_specs.notes));
    if (!forecaster) return std::unexpected(forecaster.error());
    auto forecasts = forecast_within_deadline(**forecaster, requests, outside);
    if (!forecasts) return std::unexpected(forecasts.error());
    warn_of_failures(run, **forecaster, *forecasts, outside.console.warnings);
    // An untrusted author's kernel that the LLM's forecast alone would pass gets the embedded
    // forecaster's opinion, which reads no prose and may pass it instead (kernel_policy.cpp).
    if (inputs.author.trust == git::AuthorTrust::untrusted) {
      std::vector<std::size_t> asked;
      std::vector<forecasters::ForecastRequest> second_requests;
      for (std::size_t k = 0; k < to_forecast.size(); ++k) {
        const auto& forecast = forecasts->kernels[k].forecast;
        if (forecast && steerable(*forecast) &&
            policy::is_trusted(forecast->p_regression, forecast->confidence, settings.trust)) {
          asked.push_back(to_forecast[k]);
          second_requests.push_back(requests[k]);
        }
      }
      if (!asked.empty()) {
        const forecasters::EmbeddedForecaster embedded(features, settings.tolerance);
        if (auto opinions = embedded.forecast(second_requests))
          for (std::size_t k = 0; k < asked.size(); ++k) run.cases[asked[k]].second_opinion = opinions->kernels[k].forecast;
      }
    }
    record_forecasts(run, to_forecast, std::move(*forecasts));
    // Whom the LLM's forecasts were trusted for, and on what grounds (assumed, outside GitHub).
    if (prompts_given)
      run.notes.push_back(
          fmt::format("author: {}{}", git::describe(inputs.author),
                      inputs.author.trust == git::AuthorTrust::trusted
                          ? ""
                          : ": an LLM forecast alone passes none of its kernels; the embedded forecaster's trust or a "
                            "measurement must"));
  }
  return {};
}

}  // namespace kforecast::gate
