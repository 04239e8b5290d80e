// SPDX-License-Identifier: Apache-2.0
#include "gate/change_review.hpp"

#include <algorithm>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "cuda/library_search.hpp"
#include "embedded/occupancy.hpp"
#include "forecasters/compiler_facts.hpp"
#include "forecasters/device_unit.hpp"
#include "forecasters/embedded_forecaster.hpp"
#include "builds/identical_code_step.hpp"
#include "gate/kernel_policy.hpp"
#include "forecasters/llm_launch_text.hpp"
#include "builds/machine_code_tier.hpp"
#include "builds/unreported_kernels.hpp"
#include "policy/ptx_cache.hpp"
#include "policy/trust.hpp"

namespace kforecast::gate {
namespace {

report::Change change_of(kernels::KernelChange change) {
  switch (change) {
    case kernels::KernelChange::added:
      return report::Change::added;
    case kernels::KernelChange::removed:
      return report::Change::removed;
    case kernels::KernelChange::renamed:
      return report::Change::renamed;
    case kernels::KernelChange::modified:
      break;
  }
  return report::Change::modified;
}

report::KernelEntry entry_for(const kernels::ChangedKernel& kernel, const builds::KernelCodeVerdict* code,
                              const std::string& arch, const std::string& no_compiler) {
  const auto& site = kernel.head ? *kernel.head : *kernel.base;
  report::KernelEntry entry{
      site.qualified_name,         site.file,     site.line, change_of(kernel.change), report::Decision::forecast_only,
      report::KernelVerdict::warn, kernel.reasons};
  if (kernel.change == kernels::KernelChange::removed) {
    entry.decision = report::Decision::skipped;
    entry.verdict = report::KernelVerdict::pass;
    entry.notes.push_back("removed: nothing to measure");
    return entry;
  }
  if (kernel.base && kernel.head &&
      (kernel.base->file != kernel.head->file || kernel.base->qualified_name != kernel.head->qualified_name))
    entry.base_kernel = fmt::format("{}:{}", kernel.base->file, kernel.base->qualified_name);
  using policy::CodeComparison;
  if (code != nullptr) entry.build = code->compiled_by;
  if (code != nullptr && code->outcome == CodeComparison::identical) {
    entry.decision = report::Decision::identical_code;
    entry.verdict = report::KernelVerdict::pass;
    entry.notes.push_back(
        fmt::format("machine code identical for {} ({}): speedup exactly 1", arch, fmt::join(code->names, ", ")));
    return entry;
  }
  // Only a real break fails the gate: the base compiled and the head does not, with the first
  // error in the project's own code (builds/compile_failure.hpp). A head kforecast lacks the context
  // to compile, or a kernel neither side compiles, is forecast like any other change.
  if (code != nullptr && code->outcome == CodeComparison::head_failed && code->missing_context.empty()) {
    entry.verdict = report::KernelVerdict::fail;
    entry.notes.push_back(fmt::format("the head does not compile for {}: {}", arch, code->note));
    return entry;
  }
  if (code != nullptr && code->outcome == CodeComparison::head_failed)
    entry.notes.push_back(fmt::format(
        "the head could not be compiled for {} with the context kforecast has ({}; the project's own build may "
        "have it): code not compared, so the kernel is forecast: {}",
        arch, code->missing_context, code->note));
  else if (code != nullptr && code->outcome == CodeComparison::both_failed)
    entry.notes.push_back(fmt::format(
        "neither revision compiles for {} with the context kforecast has (the base fails too, so it is not this "
        "change's doing): code not compared, so the kernel is forecast: {}",
        arch, code->note));
  else if (code != nullptr && code->outcome == CodeComparison::base_failed)
    entry.notes.push_back(fmt::format("the base does not compile for {} (code not compared): {}", arch, code->note));
  else if (code != nullptr && code->outcome == CodeComparison::different)
    entry.notes.push_back(code->note.empty() ? fmt::format("machine code differs for {}", arch)
                                             : fmt::format("machine code differs for {}: {}", arch, code->note));
  else if (code != nullptr && !code->note.empty())
    entry.notes.push_back(code->note);
  else if (kernel.change != kernels::KernelChange::added && !no_compiler.empty())
    entry.notes.push_back(no_compiler);
  if (builds::found_by_machine_code(kernel))
    entry.notes.push_back(
        "not forecast: the forecasters read source, and what changed lies outside the kernel's source (a template "
        "argument or constant at its launch site, code it runs that the scan cannot follow)");
  return entry;
}

// Whether a changed kernel is forecast: present at both revisions, and neither settled nor failed
// by the identical-code tier.
bool needs_forecast(const kernels::ChangedKernel& kernel, const report::KernelEntry& entry) {
  return kernel.base && kernel.head && !builds::found_by_machine_code(kernel) &&
         entry.decision == report::Decision::forecast_only && entry.verdict != report::KernelVerdict::fail;
}

// The text the forecasters read for a kernel at one revision (cli/device_unit.hpp), shared by
// every kernel of its file.
SharedText kernel_text(forecasters::DeviceUnits& units, const kernels::KernelSite& site) { return units.text(site); }

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

// What a forecaster needs about the changed kernels at `entries`: each side's device-only unit
// (cli/device_unit.hpp), its name there and its launch geometry. A prompt's extras are built only
// if an LLM asks: the launch text (the kernel's launch spec, as cli/llm_launch_text.hpp shows it)
// and, with a compiler, each side's facts from compiling its unit for `arch` (machine code, so
// ptxas reports resources); templates and kernels NVRTC cannot name simply go without. The
// requests refer to `analysis`, `base`, `head`, `config_specs` and `compiler`, which must outlive
// them.
std::vector<forecasters::ForecastRequest> forecast_requests(
    const std::vector<std::size_t>& entries, const kernels::ChangeAnalysis& analysis,
    const kernels::RevisionSources& base, const kernels::RevisionSources& head, const std::string& cuda_include,
    forecasters::DeviceUnits& base_units, forecasters::DeviceUnits& head_units, const cuda::Compiler* compiler, const std::string& arch,
    const std::vector<bench::LaunchSpec>& config_specs) {
  std::vector<forecasters::ForecastRequest> requests;
  for (const std::size_t i : entries) {
    const auto& kernel = analysis.kernels[i];
    const auto launches = forecasters::kernel_launches(base, *kernel.base, head, *kernel.head, config_specs);
    forecasters::ForecastRequest request{
        {kernel_text(base_units, *kernel.base), kernel.base->qualified_name, geometry(launches.reference)},
        {kernel_text(head_units, *kernel.head), kernel.head->qualified_name, geometry(launches.candidate)},
        {}};
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
// not forecast: any forecast would say "no change" for a change it cannot see. It goes to a
// measurement instead. Drops such requests, and their kernels from `to_forecast`.
void drop_blind_requests(GateRun& run, std::vector<std::size_t>& to_forecast, std::vector<forecasters::ForecastRequest>& requests) {
  std::size_t kept = 0;
  for (std::size_t k = 0; k < requests.size(); ++k) {
    const auto& reference = requests[k].reference;
    const auto& candidate = requests[k].candidate;
    if (reference.source == candidate.source && reference.kernel == candidate.kernel &&
        same_geometry(reference.launch, candidate.launch)) {
      run.cases[to_forecast[k]].entry.notes.push_back(
          "not forecast: the forecasters would read the same kernel text at both revisions, and what changed lies "
          "outside it");
      continue;
    }
    if (kept != k) {
      requests[kept] = std::move(requests[k]);
      to_forecast[kept] = to_forecast[k];
    }
    ++kept;
  }
  requests.resize(kept);
  to_forecast.resize(kept);
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

// A unit built to find changes the source scan cannot see (a template argument at a launch site,
// an overload, a call the scan resolves to another function) that could not be compared is a
// check that did not run: "no CUDA kernel changed" would otherwise be said as if it had.
void warn_of_uncompared_units(GateRun& gate_run, const std::vector<std::string>& units, std::ostream& err) {
  if (units.empty()) return;
  report::RunWarning warning{
      fmt::format("{} unit{} built to find kernel changes the source scan cannot see could not be compared",
                  units.size(), units.size() == 1 ? "" : "s"),
      fmt::format("{}{}; a change only machine code shows would pass unseen there (give kforecast the project's "
                  "compile_commands.json: docs/compile-context.md)",
                  units.front().substr(0, units.front().find('\n')), units.size() > 1 ? fmt::format(" (and {} more)", units.size() - 1) : "")};
  err << "kforecast: warning: " << report::warning_text(warning) << "\n";
  gate_run.warnings.push_back(std::move(warning));
}

}  // namespace

std::pair<std::string, std::string> target_arch(const Settings& settings, const Outside& outside) {
  if (settings.arch != "auto") return {settings.arch, fmt::format("target {} (cuda.arch)", settings.arch)};
  if (auto local = outside.gpu.local ? outside.gpu.local() : std::nullopt)
    return {local->first, fmt::format("target {} (the local {})", local->first, local->second)};
  return {"sm_90", "target sm_90 (cuda.arch is auto and no GPU is visible)"};
}

Result<std::vector<std::size_t>> review_changed_kernels(GateRun& run, ReviewInputs inputs, const Settings& settings,
                                                        Outside& outside) {
  kernels::ChangeAnalysis& analysis = inputs.analysis;
  const std::string& cuda_include = outside.compilers.cuda_include_dir;

  const auto [arch, arch_note] = target_arch(settings, outside);
  const embedded::FactsCache* facts_cache = outside.caches.facts;
  auto compiler = inputs.compile && outside.compilers.nvrtc
                      ? outside.compilers.nvrtc()
                      : cuda::LoadedCompiler(std::unexpected(cuda::Unavailable{"not compiled", "", "", {}}));
  std::optional<builds::LoadedUnitCompiler> nvcc;
  if (inputs.compile && outside.compilers.nvcc) nvcc = outside.compilers.nvcc();
  auto machine_code =
      inputs.compile
          ? builds::compare_machine_code(inputs.base, inputs.head, analysis.kernels,
                                         {.arch = arch,
                                          .nvrtc = compiler,
                                          .nvcc = nvcc ? &*nvcc : nullptr,
                                          .compile = settings.compile,
                                          .config = settings.config,
                                          .cuda_include_dir = cuda_include,
                                          .unit_cache = outside.caches.units,
                                          .ptx_cache = outside.caches.ptx,
                                          .console = outside.console,
                                          .deadline = outside.deadline,
                                          .reads_confined = outside.sandbox.files.in_force})
          : builds::MachineCodeVerdicts{};
  std::vector<builds::KernelCodeVerdict>& code = machine_code.kernels;
  for (std::size_t i = 0; i < machine_code.found.kernels.size(); ++i) {
    analysis.kernels.push_back(std::move(machine_code.found.kernels[i]));
    code.push_back(std::move(machine_code.found.verdicts[i]));
  }
  const std::string& no_compiler = machine_code.no_compiler;

  if (no_compiler.empty() && inputs.compile) run.notes.push_back(arch_note);
  for (auto& note : machine_code.notes) run.notes.push_back(std::move(note));
  warn_of_uncompared_units(run, machine_code.uncompared_gap_units, outside.console.warnings);
  for (const auto& note : inputs.context_notes) run.notes.push_back(note);
  for (const auto& name : analysis.comment_only) run.notes.push_back(fmt::format("{}: comments or whitespace only", name));
  for (std::size_t i = 0; i < analysis.kernels.size(); ++i)
    run.cases.push_back({entry_for(analysis.kernels[i], code.empty() ? nullptr : &code[i], arch, no_compiler),
                         {},
                         code.empty() ? std::nullopt : code[i].build_arguments});
  const cuda::Compiler* const compiler_or_null = compiler ? compiler->get() : nullptr;
  std::vector<std::size_t> to_forecast;
  for (std::size_t i = 0; i < analysis.kernels.size(); ++i)
    if (needs_forecast(analysis.kernels[i], run.cases[i].entry)) to_forecast.push_back(i);
  // Nothing to forecast: no forecaster is built, so no endpoint is reached and libcurl is not loaded.
  const bool prompts_given = inputs.prompts.has_value();
  auto launch_specs = forecasters::config_launch_specs(settings.config);
  forecasters::DeviceUnits base_units(inputs.base, cuda_include), head_units(inputs.head, cuda_include);
  std::vector<forecasters::ForecastRequest> requests;
  if (!to_forecast.empty()) {
    requests = forecast_requests(to_forecast, analysis, inputs.base, inputs.head, cuda_include, base_units, head_units,
                                 compiler_or_null, arch, launch_specs.specs);
    drop_blind_requests(run, to_forecast, requests);
  }
  if (!requests.empty()) {
    const auto features = embedded_features(settings, compiler_or_null, arch, facts_cache);
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
  return apply_policy(run.cases, settings.trust,
                      settings.measure.fail_unverified ? Unverified::fail : Unverified::warn, inputs.author);
}
}  // namespace kforecast::gate
