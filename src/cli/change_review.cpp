// SPDX-License-Identifier: Apache-2.0
#include "cli/change_review.hpp"

#include <unistd.h>

#include <algorithm>
#include <iostream>
#include <map>

#include <fmt/format.h>

#include "cli/compiler_loading.hpp"
#include "cuda/library_search.hpp"

#include "cli/compiler_facts.hpp"
#include "cli/device_unit.hpp"
#include "cli/embedded_forecast_step.hpp"
#include "cli/identical_code_step.hpp"
#include "cli/llm_forecast_step.hpp"
#include "cli/llm_launch_text.hpp"
#include "cli/policy_step.hpp"
#include "cuda/cuda_driver.hpp"
#include "cuda/nvrtc.hpp"
#include "embedded/occupancy.hpp"
#include "policy/ptx_cache.hpp"

namespace kforecast::cli {
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

report::KernelEntry entry_for(const kernels::ChangedKernel& kernel, const KernelCodeVerdict* code,
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
  using policy::CodeComparison;
  if (code != nullptr && code->outcome == CodeComparison::identical) {
    entry.decision = report::Decision::identical_code;
    entry.verdict = report::KernelVerdict::pass;
    entry.notes.push_back(
        fmt::format("machine code identical for {} ({}): speedup exactly 1", arch, fmt::join(code->names, ", ")));
    return entry;
  }
  if (code != nullptr && code->outcome == CodeComparison::head_failed) {
    entry.verdict = report::KernelVerdict::fail;
    entry.notes.push_back(fmt::format("the head does not compile for {}: {}", arch, code->note));
    return entry;
  }
  if (code != nullptr && code->outcome == CodeComparison::base_failed)
    entry.notes.push_back(fmt::format("the base does not compile for {} (code not compared): {}", arch, code->note));
  else if (code != nullptr && code->outcome == CodeComparison::different)
    entry.notes.push_back(fmt::format("machine code differs for {}", arch));
  else if (code != nullptr && !code->note.empty())
    entry.notes.push_back(code->note);
  else if (kernel.change != kernels::KernelChange::added && !no_compiler.empty())
    entry.notes.push_back(no_compiler);
  entry.notes.push_back("not verified: the forecasters and the GPU benchmark are not built yet");
  return entry;
}

// Whether a changed kernel is forecast: present at both revisions, and neither settled nor failed
// by the identical-code tier.
bool needs_forecast(const kernels::ChangedKernel& kernel, const report::KernelEntry& entry) {
  return kernel.base && kernel.head && entry.decision == report::Decision::forecast_only &&
         entry.verdict != report::KernelVerdict::fail;
}

// The text the forecasters read for a kernel at one revision (cli/device_unit.hpp), shared by
// every kernel of its file.
SharedText kernel_text(DeviceUnits& units, const kernels::KernelSite& site) { return units.text(site); }

// The changed kernels the LLM should forecast: present at both revisions and not settled (or
// failed) by the identical-code tier.
// With a compiler, each side's facts come from compiling its unit for `arch` (machine code, so
// ptxas reports resources); templates and kernels NVRTC cannot name simply go without.
// Each kernel's launch spec, where it has one, gives the prompt its grid, block and sizes.
std::vector<LlmKernelInput> llm_inputs(const report::Report& report, const kernels::ChangeAnalysis& analysis,
                                       const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                       const std::string& cuda_include, DeviceUnits& base_units,
                                       DeviceUnits& head_units, const cuda::Compiler* compiler, const std::string& arch,
                                       const std::vector<bench::LaunchSpec>& config_specs) {
  std::vector<LlmKernelInput> inputs;
  std::map<std::string, SharedText, std::less<>> raw_files;  // each head file copied once, however many kernels
  for (std::size_t i = 0; i < analysis.kernels.size(); ++i) {
    const auto& kernel = analysis.kernels[i];
    const auto& entry = report.kernels[i];
    if (!needs_forecast(kernel, entry)) continue;
    LlmKernelInput input;
    input.entry = i;
    input.pair.kernel_name = kernel.head->qualified_name;
    input.pair.reference_source = kernel_text(base_units, *kernel.base);
    input.pair.candidate_source = kernel_text(head_units, *kernel.head);
    auto raw = raw_files.find(kernel.head->file);
    if (raw == raw_files.end()) raw = raw_files.emplace(kernel.head->file, head.files().at(kernel.head->file)).first;
    input.candidate_raw = raw->second;
    auto launch = kernel_launch_text(base, *kernel.base, head, *kernel.head, config_specs);
    input.pair.launch_configuration = std::move(launch.text);
    input.notes = std::move(launch.notes);
    if (compiler != nullptr) {
      const IdenticalCodeContext unit_context{*compiler, arch, nullptr, cuda_include};
      input.pair.reference_compiler_facts = compiler_facts(
          *compiler, compile_unit(base, kernel.base->file, unit_context), kernel.base->qualified_name, arch);
      input.pair.candidate_compiler_facts = compiler_facts(
          *compiler, compile_unit(head, kernel.head->file, unit_context), kernel.head->qualified_name, arch);
    }
    inputs.push_back(std::move(input));
  }
  return inputs;
}

// The embedded forecaster's inputs: the same kernels as the LLM's, each as the device-only unit
// of its revision (what NVRTC compiles for the compiler facts) and its name there.
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

std::vector<EmbeddedKernelInput> embedded_inputs(const report::Report& report, const kernels::ChangeAnalysis& analysis,
                                                 const kernels::RevisionSources& base,
                                                 const kernels::RevisionSources& head, DeviceUnits& base_units,
                                                 DeviceUnits& head_units,
                                                 const std::vector<bench::LaunchSpec>& config_specs) {
  std::vector<EmbeddedKernelInput> inputs;
  for (std::size_t i = 0; i < analysis.kernels.size(); ++i) {
    const auto& kernel = analysis.kernels[i];
    if (!needs_forecast(kernel, report.kernels[i])) continue;
    const auto launches = kernel_launches(base, *kernel.base, head, *kernel.head, config_specs);
    inputs.push_back(
        {i,
         {kernel_text(base_units, *kernel.base), kernel.base->qualified_name, geometry(launches.reference)},
         {kernel_text(head_units, *kernel.head), kernel.head->qualified_name, geometry(launches.candidate)}});
  }
  return inputs;
}

// What the embedded forecaster reads beside the two texts: the compiler (for NVRTC facts) and the
// target GPU of forecast.hardware, where its table knows it.
embedded::FeatureContext embedded_features(const config::Config& config, const cuda::Compiler* compiler,
                                           const std::string& arch, const embedded::FactsCache* facts_cache) {
  embedded::FeatureContext features{compiler, arch, {}, facts_cache};
  if (auto gpu = embedded::find_gpu(config.string_value("forecast.hardware"))) features.gpu = *gpu;
  return features;
}

}  // namespace

// cuda.arch, with "auto" meaning the first local GPU's architecture, else sm_90 (the H100, the
// GPU the forecasters are trained for). The note says which was taken and why.
std::pair<std::string, std::string> target_arch(const config::Config& config) {
  const std::string arch = config.string_value("cuda.arch");
  if (arch != "auto") return {arch, fmt::format("target {} (cuda.arch)", arch)};
  auto driver = cuda::load_driver({"", config.string_value("cuda.driver_library")});
  if (driver) {
    if (auto devices = (*driver)->devices(); devices && !devices->empty())
      return {devices->front().arch(),
              fmt::format("target {} (the local {})", devices->front().arch(), devices->front().name)};
  }
  return {"sm_90", "target sm_90 (cuda.arch is auto and no GPU is visible)"};
}

std::string cuda_include_dir(const EnvLookup& env) { return cuda::toolkit_include_dir(env); }

// Which forecaster runs: --forecaster, else forecast.forecaster (KFORECAST_FORECASTER).
Result<bool> use_llm_forecaster(const Invocation& invocation, const config::Config& config) {
  if (!invocation.has("--forecaster")) return config.string_value("forecast.forecaster") == "llm";
  const std::string name = invocation.value("--forecaster");
  if (name == "llm" || name == "embedded") return name == "llm";
  return usage_error(fmt::format("--forecaster {}: expected embedded or llm", name));
}

// policy.ledger, relative to the config file's directory, else to the repository root (where
// the base revision's .kforecast.toml lives): where `kforecast calibration` looks.
std::filesystem::path ledger_path(const config::Config& config, const std::filesystem::path& repository_root) {
  const std::filesystem::path configured = config.string_value("policy.ledger");
  if (configured.is_absolute()) return configured;
  return (config.file() ? config.file()->parent_path() : repository_root) / configured;
}

Result<std::vector<std::size_t>> review_changed_kernels(report::Report& report, ReviewInputs inputs, Context& context) {
  const config::Config& config = inputs.config;
  const kernels::ChangeAnalysis& analysis = inputs.analysis;
  const std::string cuda_include = cuda_include_dir(context.env);
  const bool terminal = context.err_is_terminal;

  const auto [arch, arch_note] = target_arch(config);
  auto compiler = load_compiler(config, context.env);
  std::vector<KernelCodeVerdict> code;
  std::optional<policy::PtxCache> cache;
  if (auto directory = policy::default_ptx_cache_directory(context.env)) cache.emplace(*directory);
  const auto facts_cache = default_facts_cache(context.env);
  if (compiler) {
    IdenticalCodeContext compare{**compiler, arch, cache ? &*cache : nullptr, cuda_include};
    // The command's progress where it has one; else a line on a terminal only.
    if (context.progress)
      compare.progress = [progress = context.progress, &arch](std::size_t done, std::size_t total) {
        if (done == 0) progress->stage(fmt::format("comparing machine code for {}", arch), total, "files");
        progress->advance(done);
      };
    else if (terminal)
      compare.progress = [&](std::size_t done, std::size_t total) {
        context.err << (done < total
                            ? fmt::format("\rkforecast: comparing machine code for {}: {}/{} files", arch, done, total)
                            : std::string("\r\x1b[K"))
                    << std::flush;
      };
    code = compare_changed_kernels(inputs.base, inputs.head, analysis.kernels, compare);
  }
  const std::string no_compiler = compiler ? "" : "machine code not compared: " + compiler.error().message();

  if (compiler) report.notes.push_back(arch_note);
  for (const auto& note : inputs.context_notes) report.notes.push_back(note);
  for (const auto& name : analysis.comment_only)
    report.notes.push_back(fmt::format("{}: comments or whitespace only", name));
  for (std::size_t i = 0; i < analysis.kernels.size(); ++i) {
    report.kernels.push_back(entry_for(analysis.kernels[i], code.empty() ? nullptr : &code[i], arch, no_compiler));
    if (report.kernels.back().verdict == report::KernelVerdict::fail) report.verdict = report::GateVerdict::fail;
  }
  const cuda::Compiler* const compiler_or_null = compiler ? compiler->get() : nullptr;
  auto launch_specs = config_launch_specs(config);
  DeviceUnits base_units(inputs.base, cuda_include), head_units(inputs.head, cuda_include);
  if (inputs.prompts) {
    auto llm_kernels = llm_inputs(report, analysis, inputs.base, inputs.head, cuda_include, base_units, head_units,
                                  compiler_or_null, arch, launch_specs.specs);
    if (!llm_kernels.empty())
      for (auto& note : launch_specs.notes) report.notes.push_back(std::move(note));
    const bool fallback = config.string_value("forecast.fallback") == "embedded";
    auto failures = add_llm_forecasts(
        report, llm_kernels,
        {config, context.env, std::move(*inputs.prompts), terminal ? &context.err : nullptr, fallback});
    if (!failures) return std::unexpected(failures.error());
    if (fallback && !failures->empty())
      add_fallback_forecasts(
          report,
          embedded_inputs(report, analysis, inputs.base, inputs.head, base_units, head_units, launch_specs.specs),
          *failures, "llm", embedded_features(config, compiler_or_null, arch, facts_cache ? &*facts_cache : nullptr),
          config.number_value("bench.tolerance"));
  } else {
    const auto embedded =
        embedded_inputs(report, analysis, inputs.base, inputs.head, base_units, head_units, launch_specs.specs);
    const auto features = embedded_features(config, compiler_or_null, arch, facts_cache ? &*facts_cache : nullptr);
    // In slices, so that a long run shows how far it is.
    constexpr std::size_t slice = 256;
    if (context.progress) context.progress->stage("forecasting", embedded.size());
    for (std::size_t first = 0; first < embedded.size(); first += slice) {
      const std::vector<EmbeddedKernelInput> part(embedded.begin() + first,
                                                  embedded.begin() + std::min(first + slice, embedded.size()));
      add_embedded_forecasts(report, part, features, config.number_value("bench.tolerance"));
      if (context.progress) context.progress->advance(first + part.size());
    }
  }
  return apply_policy(report,
                      {{config.number_value("policy.max_p_regression"), config.number_value("policy.min_confidence")},
                       config.number_value("bench.tolerance"),
                       config.string_value("policy.on_unverified") == "fail"});
}
}  // namespace kforecast::cli
