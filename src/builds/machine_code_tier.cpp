// SPDX-License-Identifier: Apache-2.0
#include "builds/machine_code_tier.hpp"

#include <algorithm>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "builds/unit_builds.hpp"
#include "builds/unit_code_compare.hpp"
#include "builds/unit_context.hpp"
#include "policy/ptx_cache.hpp"

namespace kforecast::builds {
namespace {

// Progress of one compiling stage, on the command's Progress.
std::function<void(std::size_t, std::size_t)> progress_of(const Console& console, const std::string& what,
                                                          std::string items) {
  if (console.progress == nullptr) return {};
  return [progress = console.progress, what, items = std::move(items)](std::size_t done, std::size_t total) {
    if (done == 0) progress->stage(what, total, items);
    progress->advance(done);
  };
}

// nvcc over the units the change affects; nullopt where there is no nvcc (the reason in `notes`).
std::optional<UnitCodeVerdicts> compare_with_nvcc(const kernels::RevisionSources& base,
                                                  const kernels::RevisionSources& head,
                                                  const std::vector<kernel_changes::ChangedKernel>& changed,
                                                  const MachineCodeSetup& setup, std::vector<std::string>& notes,
                                                  FoundKernels& found, std::vector<std::size_t>& blocked,
                                                  std::string& blocked_reason) {
  if (setup.nvcc == nullptr) return std::nullopt;
  const LoadedUnitCompiler& compiler = *setup.nvcc;
  const std::string& arch = setup.arch;
  if (!compiler) {
    notes.push_back(fmt::format("machine code compared with NVRTC only (device code, kforecast's own context): {}",
                                compiler.error()));
    return std::nullopt;
  }
  const UnitContexts contexts(setup.compile, setup.config, arch);
  for (const auto& note : contexts.notes()) notes.push_back(note);
  const std::size_t jobs =
      setup.compile.jobs > 0 ? setup.compile.jobs : std::max(1u, std::thread::hardware_concurrency());
  // The compile budget, or what is left of the run's where that is less.
  const std::chrono::milliseconds compile_budget = setup.compile.budget;
  const std::chrono::milliseconds run_left = setup.deadline.left(compile_budget);
  UnitBuildSettings build{
      **compiler,
      arch,
      contexts.lookup(),
      setup.unit_cache,
      jobs,
      run_left,
      setup.compile.max_units,
      setup.reads_confined,
      progress_of(setup.console, fmt::format("building units with {} for {}", (*compiler)->name(), arch),
                  "compiles")};
  build.budget_reason = run_left < compile_budget
                            ? setup.deadline.reason()
                            : fmt::format("the compile budget of {} s (compile.budget_seconds) was spent",
                                          setup.compile.budget.count());
  const UnitBuilds builds = build_affected_units(base, head, changed, build);
  notes.insert(notes.end(), builds.notes.begin(), builds.notes.end());
  // The report says what was built; how much came from the cache is said on standard error only,
  // so that a re-run writes the same report.
  if (!builds.units.empty()) {
    const auto both = static_cast<std::size_t>(std::ranges::count_if(builds.units, [](const UnitBuild& unit) {
      return unit.base.state == SideBuild::State::compiled && unit.head.state == SideBuild::State::compiled;
    }));
    notes.push_back(fmt::format("{} for {}: {} of {} unit{} compiled at both revisions", builds.compiler, arch, both,
                                builds.units.size(), builds.units.size() == 1 ? "" : "s"));
    if (setup.console.is_terminal)
      setup.console.warnings << fmt::format("kforecast: {}: {} compile{}, {} answer{} from the unit cache\n", builds.compiler,
                                      builds.compiles, builds.compiles == 1 ? "" : "s", builds.cache_hits,
                                      builds.cache_hits == 1 ? "" : "s");
  }
  auto verdicts = compare_unit_builds(builds, changed, arch, &base.files(), &head);
  for (const UnitBuild& unit : builds.units)
    if (!unit.base_context.unavailable.empty() || !unit.head_context.unavailable.empty())
      for (const std::size_t kernel : unit.kernels)
        if (kernel < verdicts.kernels.size() && !verdicts.kernels[kernel].outcome &&
            std::ranges::find(blocked, kernel) == blocked.end())
          blocked.push_back(kernel);
  std::ranges::sort(blocked);
  if (!blocked.empty()) blocked_reason = contexts.torch_missing();
  notes.insert(notes.end(), verdicts.notes.begin(), verdicts.notes.end());
  found = kernels_from_machine_code(base, head, verdicts.unreported);
  notes.insert(notes.end(), found.notes.begin(), found.notes.end());
  found.notes.clear();
  return verdicts;
}

}  // namespace

MachineCodeVerdicts compare_machine_code(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                         const std::vector<kernel_changes::ChangedKernel>& changed,
                                         const MachineCodeSetup& setup) {
  const std::string& arch = setup.arch;
  const cuda::LoadedCompiler& compiler = setup.nvrtc;
  MachineCodeVerdicts result;
  auto by_nvcc =
      compare_with_nvcc(base, head, changed, setup, result.notes, result.found, result.blocked_kernels, result.blocked_reason);
  if (by_nvcc) result.uncompared_gap_units = by_nvcc->uncompared_gap_units;

  // NVRTC for what nvcc did not settle: a kernel no built unit holds, or every kernel without nvcc.
  std::vector<kernel_changes::ChangedKernel> for_nvrtc = changed;
  std::size_t left = 0;
  for (std::size_t i = 0; i < changed.size(); ++i) {
    // Settled by nvcc, or in a unit whose headers are missing here: NVRTC would fail on them too.
    if (by_nvcc && (by_nvcc->kernels[i].outcome || std::ranges::binary_search(result.blocked_kernels, i))) {
      for_nvrtc[i].base.reset();  // compare_changed_kernels skips a kernel missing a side
      for_nvrtc[i].head.reset();
    } else if (changed[i].base && changed[i].head) {
      ++left;
    }
  }
  std::vector<KernelCodeVerdict> by_nvrtc;
  if (compiler && left > 0) {
    IdenticalCodeContext compare{**compiler, arch, setup.ptx_cache, setup.cuda_include_dir};
    compare.progress = progress_of(setup.console, fmt::format("comparing machine code for {}", arch), "kernels");
    compare.deadline = &setup.deadline;
    by_nvrtc = compare_changed_kernels(base, head, for_nvrtc, compare);
    const std::string nvrtc = "NVRTC " + (*compiler)->version().text();
    for (auto& verdict : by_nvrtc)
      if (verdict.outcome)
        verdict.compiled_by = fmt::format("{} for {}, device code only, kforecast's own context", nvrtc, arch);
  }
  if (!by_nvcc && !compiler) {
    result.no_compiler = "machine code not compared: " + compiler.error().message();
    return result;
  }
  result.kernels.resize(changed.size());
  for (std::size_t i = 0; i < changed.size(); ++i) {
    if (by_nvcc && (by_nvcc->kernels[i].outcome || by_nvrtc.empty() || !by_nvrtc[i].outcome)) {
      // nvcc's verdict, or its note on why it had none where NVRTC had none either.
      result.kernels[i] = std::move(by_nvcc->kernels[i]);
      if (!result.kernels[i].outcome && !by_nvrtc.empty() && !by_nvrtc[i].note.empty())
        result.kernels[i].note += "; NVRTC: " + by_nvrtc[i].note;
    } else if (!by_nvrtc.empty()) {
      result.kernels[i] = std::move(by_nvrtc[i]);
    }
  }
  return result;
}

}  // namespace kforecast::builds
