// SPDX-License-Identifier: Apache-2.0
#include "gate/change_review.hpp"

#include <algorithm>
#include <iostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "builds/identical_code_step.hpp"
#include "builds/machine_code_tier.hpp"
#include "builds/unreported_kernels.hpp"
#include "gate/compile_warnings.hpp"
#include "gate/forecast_step.hpp"
#include "gate/kernel_policy.hpp"

namespace kforecast::gate {
namespace {

report::Change change_of(kernel_changes::KernelChange change) {
  switch (change) {
    case kernel_changes::KernelChange::added:
      return report::Change::added;
    case kernel_changes::KernelChange::removed:
      return report::Change::removed;
    case kernel_changes::KernelChange::renamed:
      return report::Change::renamed;
    case kernel_changes::KernelChange::modified:
      break;
  }
  return report::Change::modified;
}

report::KernelEntry entry_for(const kernel_changes::ChangedKernel& kernel, const builds::KernelCodeVerdict* code,
                              const std::string& arch, const std::string& no_compiler) {
  const auto& site = kernel.head ? *kernel.head : *kernel.base;
  report::KernelEntry entry{
      site.qualified_name,         site.file,     site.line, change_of(kernel.change), report::Decision::forecast_only,
      report::KernelVerdict::warn, kernel.reasons};
  if (kernel.change == kernel_changes::KernelChange::removed) {
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
  else if (kernel.change != kernel_changes::KernelChange::added && !no_compiler.empty())
    entry.notes.push_back(no_compiler);
  if (builds::found_by_machine_code(kernel))
    entry.notes.push_back(
        "not forecast: the forecasters read source, and what changed lies outside the kernel's source (a template "
        "argument or constant at its launch site, code it runs that the scan cannot follow)");
  return entry;
}

// Whether a changed kernel is forecast: present at both revisions, and neither settled nor failed
// by the identical-code tier.
bool needs_forecast(const kernel_changes::ChangedKernel& kernel, const report::KernelEntry& entry) {
  return kernel.base && kernel.head && !builds::found_by_machine_code(kernel) &&
         entry.decision == report::Decision::forecast_only && entry.verdict != report::KernelVerdict::fail;
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

// Kernels whose text moved but whose code did not: a note each where there are a few, else one
// note for all of them, so that a commit that reformats a whole repository (hundreds of kernels)
// reads as one line, not hundreds.
void add_untouched_note(GateRun& run, const std::vector<std::string>& names, std::string_view what) {
  constexpr std::size_t each = 5, shown = 8;
  if (names.size() <= each) {
    for (const auto& name : names) run.notes.push_back(fmt::format("{}: {}", name, what));
    return;
  }
  const auto end = names.begin() + static_cast<std::ptrdiff_t>(std::min(shown, names.size()));
  std::string note = fmt::format("{} kernels: {}: {}", names.size(), what, fmt::join(names.begin(), end, ", "));
  if (names.size() > shown) note += fmt::format(" and {} more", names.size() - shown);
  run.notes.push_back(std::move(note));
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
  const kernel_changes::ChangeAnalysis& analysis = inputs.analysis;
  const std::string& cuda_include = outside.compilers.cuda_include_dir;

  const auto [arch, arch_note] = target_arch(settings, outside);
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
  // Every changed kernel, the scan's then those only the machine code showed, each with its verdict.
  std::vector<kernel_changes::ChangedKernel> changed = analysis.kernels;
  std::vector<builds::KernelCodeVerdict>& code = machine_code.kernels;
  for (std::size_t i = 0; i < machine_code.found.kernels.size(); ++i) {
    changed.push_back(std::move(machine_code.found.kernels[i]));
    code.push_back(std::move(machine_code.found.verdicts[i]));
  }
  const std::string& no_compiler = machine_code.no_compiler;

  if (no_compiler.empty() && inputs.compile) run.notes.push_back(arch_note);
  for (auto& note : machine_code.notes) run.notes.push_back(std::move(note));
  warn_of_uncompiled_kernels(run, machine_code, outside.console.warnings);
  warn_of_uncompared_units(run, machine_code.uncompared_gap_units, outside.console.warnings);
  for (const auto& note : inputs.context_notes) run.notes.push_back(note);
  add_untouched_note(run, analysis.comment_only, "comments or whitespace only");
  add_untouched_note(run, analysis.formatting_only, "formatting only (what a code formatter rewrites)");
  for (std::size_t i = 0; i < changed.size(); ++i) {
    auto entry = entry_for(changed[i], code.empty() ? nullptr : &code[i], arch, no_compiler);
    run.cases.push_back({std::move(changed[i]), std::move(entry), {},
                         code.empty() ? std::nullopt : code[i].build_arguments,
                         code.empty() ? builds::Instances{} : code[i].instances});
  }
  std::vector<std::size_t> to_forecast;
  for (std::size_t i = 0; i < run.cases.size(); ++i)
    if (needs_forecast(run.cases[i].kernel, run.cases[i].entry)) to_forecast.push_back(i);
  if (auto forecast = forecast_cases(run, std::move(to_forecast),
                                     {inputs.base, inputs.head, std::move(inputs.prompts), inputs.author,
                                      compiler ? compiler->get() : nullptr, arch},
                                     settings, outside);
      !forecast)
    return std::unexpected(forecast.error());
  return apply_policy(run.cases, settings.trust,
                      settings.measure.fail_unverified ? Unverified::fail : Unverified::warn, inputs.author);
}
}  // namespace kforecast::gate
