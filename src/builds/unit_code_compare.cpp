// SPDX-License-Identifier: Apache-2.0
#include "builds/unit_code_compare.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "builds/compile_failure.hpp"
#include "cubin/cubin_kernel.hpp"
#include "cubin/kernel_difference.hpp"

namespace kforecast::builds {
namespace {

using policy::CodeComparison;

// The kernels of each built unit, read once however many changed kernels look at them.
struct UnitKernels {
  std::vector<cubin::CubinKernel> base, head;
  std::string unreadable;  // why a cubin could not be read, or ""
};

UnitKernels read_unit(const UnitBuild& unit) {
  UnitKernels kernels;
  auto base = cubin::read_cubin_kernels(unit.base.cubin);
  auto head = cubin::read_cubin_kernels(unit.head.cubin);
  if (!base || !head) {
    kernels.unreadable = (!base ? base.error() : head.error()).message;
    return kernels;
  }
  kernels.base = std::move(*base);
  kernels.head = std::move(*head);
  return kernels;
}

std::string display_name(const cubin::CubinKernel& kernel) { return kernel.name + kernel.template_arguments; }

// The parameter list of a demangled signature: "(float*, int)".
std::string_view parameter_list(std::string_view signature) {
  const auto open = signature.rfind('(');
  return open == std::string_view::npos ? signature : signature.substr(open);
}

// One instantiation built in place of another: where both show the same name, what differs is
// the parameter list (the symbol encodes it), so that is what the note names.
std::string replacement(const cubin::CubinKernel& added, const cubin::CubinKernel& removed, const std::string& unit) {
  if (display_name(added) == display_name(removed))
    return fmt::format("{}'s parameters changed: {} → {} in {}", display_name(added), parameter_list(removed.signature),
                       parameter_list(added.signature), unit);
  return fmt::format("instantiation {} is built instead of {} by {}", display_name(added), display_name(removed), unit);
}

// A renamed kernel's instantiations, paired by template arguments and parameters instead of
// symbol (which holds the name).
cubin::KernelPairs pair_renamed(const std::vector<cubin::CubinKernel>& base, const std::vector<cubin::CubinKernel>& head) {
  cubin::KernelPairs pairs;
  std::vector<bool> used(base.size(), false);
  for (const auto& kernel : head) {
    std::size_t match = base.size();
    for (std::size_t b = 0; b < base.size() && match == base.size(); ++b)
      if (!used[b] && base[b].template_arguments == kernel.template_arguments &&
          parameter_list(base[b].signature) == parameter_list(kernel.signature))
        match = b;
    if (match == base.size()) {
      pairs.added.push_back(&kernel);
      continue;
    }
    used[match] = true;
    pairs.paired.push_back({&base[match], &kernel});
  }
  for (std::size_t b = 0; b < base.size(); ++b)
    if (!used[b]) pairs.removed.push_back(&base[b]);
  return pairs;
}

// What one unit says about one kernel.
struct UnitFinding {
  std::optional<CodeComparison> outcome;
  std::vector<std::string> names;  // instantiations compared
  std::string note;
  std::string missing_context;
  Instances instances;  // one instantiation the unit built at each revision
};

// Whether the base revision has a file `missing` ("missing <kernels/old.cuh>") names.
bool base_had(const std::string& missing, const kernels::SourceFiles* base_files) {
  constexpr std::string_view prefix = "missing <";
  if (base_files == nullptr || !missing.starts_with(prefix) || !missing.ends_with('>')) return false;
  const std::string name = missing.substr(prefix.size(), missing.size() - prefix.size() - 1);
  return std::ranges::any_of(*base_files, [&](const auto& file) {
    return file.first == name || file.first.ends_with("/" + name);
  });
}

UnitFinding find_in_unit(const UnitBuild& unit, const UnitKernels& kernels, const std::string& base_name,
                         const std::string& head_name, const kernels::SourceFiles* base_files,
                         const kernels::RevisionSources* head_sources) {
  UnitFinding finding;
  using State = SideBuild::State;
  if (unit.base.state == State::failed || unit.head.state == State::failed) {
    const std::string& log = unit.head.state == State::failed ? unit.head.log : unit.base.log;
    finding.note = fmt::format("{}: {}", unit.unit, from_first_error(log, 6));
    finding.missing_context = missing_context(log).value_or("");
    // A header the base had and the head lost (renamed or deleted, an includer not updated) is
    // the change's doing: a real break where the base compiled.
    if (unit.base.state == State::compiled && base_had(finding.missing_context, base_files)) {
      finding.note = fmt::format("{}: it includes a header the base has and the head does not ({}): {}", unit.unit,
                                 finding.missing_context.substr(8), from_first_error(log, 6));
      finding.missing_context.clear();
    }
    if (finding.missing_context.empty() && unit.head.state == State::failed && error_in_host_code(log, head_sources))
      finding.missing_context = "host code this toolkit rejects";
    finding.outcome = unit.base.state == State::failed && unit.head.state == State::failed ? CodeComparison::both_failed
                      : unit.head.state == State::failed                                  ? CodeComparison::head_failed
                                                                                          : CodeComparison::base_failed;
    return finding;
  }
  if (!kernels.unreadable.empty()) {
    finding.note = fmt::format("{}: the cubin could not be read: {}", unit.unit, kernels.unreadable);
    return finding;
  }
  std::vector<cubin::CubinKernel> base, head;
  for (const auto& kernel : kernels.base)
    if (comparable_kernel_name(kernel.name) == base_name) base.push_back(kernel);
  for (const auto& kernel : kernels.head)
    if (comparable_kernel_name(kernel.name) == head_name) head.push_back(kernel);
  if (base.empty() && head.empty()) return finding;  // this unit does not build the kernel
  const auto pairs = base_name == head_name ? cubin::pair_kernels(base, head) : pair_renamed(base, head);
  finding.outcome = CodeComparison::identical;
  // The instantiation to measure where the kernel's own file names none: one the project builds.
  if (!pairs.paired.empty()) {
    finding.instances = {display_name(*pairs.paired.front().base), display_name(*pairs.paired.front().head), {}};
    for (std::size_t p = 1; p < pairs.paired.size(); ++p)
      if (display_name(*pairs.paired[p].base) == display_name(*pairs.paired[p].head))
        finding.instances.others.push_back(display_name(*pairs.paired[p].head));
  } else {
    finding.instances = {pairs.removed.empty() ? "" : display_name(*pairs.removed.front()),
                         pairs.added.empty() ? "" : display_name(*pairs.added.front()), {}};
  }
  for (const auto& pair : pairs.paired) {
    finding.names.push_back(display_name(*pair.head));
    if (auto difference = cubin::kernel_difference(*pair.base, *pair.head); difference && finding.note.empty()) {
      finding.outcome = CodeComparison::different;
      finding.note = fmt::format("{} in {}: {}", display_name(*pair.head), unit.unit, *difference);
    }
  }
  if (!pairs.added.empty() || !pairs.removed.empty()) {
    finding.outcome = CodeComparison::different;
    if (finding.note.empty())
      finding.note =
          pairs.added.empty()     ? fmt::format("instantiation {} is no longer built by {}",
                                                display_name(*pairs.removed.front()), unit.unit)
          : pairs.removed.empty() ? fmt::format("instantiation {} is newly built by {}",
                                                display_name(*pairs.added.front()), unit.unit)
                                  : replacement(*pairs.added.front(), *pairs.removed.front(), unit.unit);
  }
  return finding;
}

// How much a finding decides, highest first: a real break, then code that differs, then code
// that is the same, then compiles that failed for want of context.
int weight(const UnitFinding& finding) {
  if (!finding.outcome) return 0;
  switch (*finding.outcome) {
    case CodeComparison::head_failed:
      return finding.missing_context.empty() ? 6 : 3;
    case CodeComparison::different:
      return 5;
    case CodeComparison::identical:
      return 4;
    case CodeComparison::both_failed:
      return 2;
    case CodeComparison::base_failed:
      return 1;
  }
  return 0;
}

// "a.cu (why), b.cu (why), c.cu (why) and 94 more": a header reached by a hundred units names
// the first few, not all.
std::string units_not_compiled(const std::vector<std::string>& not_run) {
  constexpr std::size_t shown = 3;
  if (not_run.size() <= shown) return fmt::format("{}", fmt::join(not_run, ", "));
  return fmt::format("{} and {} more", fmt::join(not_run.begin(), not_run.begin() + shown, ", "),
                     not_run.size() - shown);
}

// A unit that may build kernel `kernel` and was left out only for time (compile.max_units, the
// compile budget), its contexts usable: nullptr where there is none.
const UnitBuild* unit_left_for_time(const UnitBuilds& builds, std::size_t kernel) {
  for (const UnitBuild& unit : builds.units)
    if (!unit.not_run.empty() && unit.base_context.unavailable.empty() && unit.head_context.unavailable.empty() &&
        !unit.head_context.origin.empty() && std::ranges::find(unit.kernels, kernel) != unit.kernels.end())
      return &unit;
  return nullptr;
}

}  // namespace

std::string comparable_kernel_name(std::string_view name) {
  std::string text(name);
  for (std::size_t at = text.find("(anonymous namespace)::"); at != std::string::npos;
       at = text.find("(anonymous namespace)::"))
    text.erase(at, 23);
  if (text.starts_with("::")) text.erase(0, 2);
  return text;
}

UnitCodeVerdicts compare_unit_builds(const UnitBuilds& builds, const std::vector<kernel_changes::ChangedKernel>& changed,
                                     const std::string& arch, const kernels::SourceFiles* base_files,
                                     const kernels::RevisionSources* head) {
  UnitCodeVerdicts verdicts;
  verdicts.kernels.resize(changed.size());
  std::vector<std::optional<UnitKernels>> read(builds.units.size());
  for (std::size_t u = 0; u < builds.units.size(); ++u)
    if (builds.units[u].base.state == SideBuild::State::compiled && builds.units[u].head.state == SideBuild::State::compiled)
      read[u] = read_unit(builds.units[u]);
  const UnitKernels nothing;

  std::set<std::string> reported;  // every changed kernel's name at either revision
  for (std::size_t i = 0; i < changed.size(); ++i) {
    if (changed[i].base) reported.insert(comparable_kernel_name(changed[i].base->qualified_name));
    if (changed[i].head) reported.insert(comparable_kernel_name(changed[i].head->qualified_name));
    if (!changed[i].base || !changed[i].head) continue;
    const std::string base_name = comparable_kernel_name(changed[i].base->qualified_name);
    const std::string head_name = comparable_kernel_name(changed[i].head->qualified_name);
    UnitFinding best;
    const UnitBuild* best_unit = nullptr;
    std::vector<std::string> names, units, not_run;
    for (std::size_t u = 0; u < builds.units.size(); ++u) {
      const UnitBuild& unit = builds.units[u];
      if (std::ranges::find(unit.kernels, i) == unit.kernels.end()) continue;
      if (!unit.not_run.empty()) {
        not_run.push_back(fmt::format("{} ({})", unit.unit, unit.not_run));
        continue;
      }
      UnitFinding finding = find_in_unit(unit, read[u] ? *read[u] : nothing, base_name, head_name, base_files, head);
      if (!finding.outcome) continue;
      units.push_back(unit.unit);
      for (auto& name : finding.names)
        if (std::ranges::find(names, name) == names.end()) names.push_back(std::move(name));
      if (weight(finding) > weight(best)) {
        best = std::move(finding);
        best_unit = &unit;
      }
    }
    std::ranges::sort(names);
    // Identical where built is not identical everywhere: an instantiation in a unit not built (the
    // compile budget or compile.max_units spent) may differ. ggml's mul_mat_q was settled from one
    // of ~20 instantiation units, and a re-run settled it from another.
    if (best.outcome == CodeComparison::identical && !not_run.empty()) {
      best.outcome.reset();
      best.note = fmt::format("machine code identical in {} unit{} built, but {} more that may build it {} not compiled "
                              "({}): not settled",
                              units.size(), units.size() == 1 ? "" : "s", not_run.size(),
                              not_run.size() == 1 ? "was" : "were", units_not_compiled(not_run));
    }
    KernelCodeVerdict& verdict = verdicts.kernels[i];
    verdict.outcome = best.outcome;
    verdict.names = std::move(names);
    verdict.missing_context = best.missing_context;
    verdict.note = best.note;
    verdict.units = units;
    verdict.instances = best.instances;
    if (best_unit != nullptr && best_unit->base.state == SideBuild::State::compiled &&
        best_unit->head.state == SideBuild::State::compiled)
      verdict.build_arguments = BuildArguments{best_unit->base_context.arguments, best_unit->head_context.arguments};
    else if (const UnitBuild* unbuilt = unit_left_for_time(builds, i))
      // Not compared (compile.max_units, or the budget), but measured as nvcc builds it all the
      // same: NVRTC's build is not the one the project ships.
      verdict.build_arguments = BuildArguments{unbuilt->base_context.arguments, unbuilt->head_context.arguments};
    if (best_unit != nullptr)
      verdict.compiled_by = fmt::format("{} for {}, unit {}{}, context {}", builds.compiler, arch, best_unit->unit,
                                        verdict.build_arguments ? "" : " (it did not compile at both revisions)",
                                        best_unit->head_context.origin);
    if (!best.outcome && verdict.note.empty())
      verdict.note = not_run.empty()
                         ? fmt::format("no unit {} built for {} holds an instantiation of it", builds.compiler, arch)
                         : fmt::format("not compiled: {}", units_not_compiled(not_run));
  }

  for (const auto& unit : builds.units) {
    if (!unit.kernels.empty()) continue;
    using State = SideBuild::State;
    const std::string why = !unit.not_run.empty()                ? unit.not_run
                            : unit.base.state == State::compiled && unit.head.state == State::compiled ? ""
                            : unit.base.state == State::failed && unit.head.state == State::failed
                                ? "neither revision compiles with the context kforecast has: " +
                                      from_first_error(unit.head.log, 3)
                            : unit.head.state == State::failed ? "the head does not compile (the base does): " +
                                                                     from_first_error(unit.head.log, 3)
                                                               : "the base does not compile: " +
                                                                     from_first_error(unit.base.log, 3);
    if (why.empty()) continue;
    // A unit the cap or the budget left unbuilt is counted in the run's note on those; one note
    // each would be dozens where a header reaches a hundred units.
    if (unit.not_run.empty())
      verdicts.notes.push_back(fmt::format(
          "{}, built to find machine code changes the source scan cannot see, was not compared: {}", unit.unit, why));
    verdicts.uncompared_gap_units.push_back(fmt::format("{}: {}", unit.unit, why));
  }

  // Machine code that changed in kernels the scanner did not report: an instantiation whose code
  // changed, or one built at one revision only (a template argument changed at a launch site).
  std::set<std::string> seen;
  std::map<std::string, std::size_t> by_kernel;  // into verdicts.unreported
  for (std::size_t u = 0; u < builds.units.size(); ++u) {
    if (!read[u] || !read[u]->unreadable.empty()) continue;
    const UnitBuild& unit = builds.units[u];
    const auto note = [&](const cubin::CubinKernel& kernel, const std::string& difference, bool comparable) {
      const std::string name = comparable_kernel_name(kernel.name);
      if (reported.contains(name) || !seen.insert(kernel.normalized_symbol).second) return;
      const auto [at, added] = by_kernel.emplace(name, verdicts.unreported.size());
      if (added)
        verdicts.unreported.push_back(
            {name, {}, unit.unit, difference, {unit.base_context.arguments, unit.head_context.arguments},
             fmt::format("{} for {}, unit {}, context {}", builds.compiler, arch, unit.unit, unit.head_context.origin)});
      verdicts.unreported[at->second].instances.push_back(display_name(kernel));
      if (comparable && !verdicts.unreported[at->second].comparable) {
        verdicts.unreported[at->second].comparable = true;
        verdicts.unreported[at->second].difference = difference;  // the comparable change says most
      }
    };
    const auto pairs = cubin::pair_kernels(read[u]->base, read[u]->head);
    for (const auto& pair : pairs.paired)
      // The kernel's own code only: data every kernel of the unit may read changes with any
      // edit of the unit's globals, and would name every kernel of it.
      if (auto difference = cubin::kernel_difference(*pair.base, *pair.head, cubin::ModuleData::ignore))
        note(*pair.head, *difference, true);
    // One instantiation built in place of another (the launch site's arguments changed) says so.
    for (const auto* kernel : pairs.added) {
      const auto replaced = std::ranges::find_if(pairs.removed, [&](const cubin::CubinKernel* gone) {
        return gone->name == kernel->name && parameter_list(gone->signature) == parameter_list(kernel->signature);
      });
      note(*kernel,
           replaced == pairs.removed.end()
               ? fmt::format("instantiation {} is newly built", display_name(*kernel))
               : fmt::format("instantiation {} is built instead of {}", display_name(*kernel), display_name(**replaced)),
           replaced != pairs.removed.end());
    }
    for (const auto* kernel : pairs.removed)
      note(*kernel, fmt::format("instantiation {} is no longer built", display_name(*kernel)), false);
  }
  return verdicts;
}

}  // namespace kforecast::builds
