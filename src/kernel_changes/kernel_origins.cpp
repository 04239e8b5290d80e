// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/kernel_origins.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "kernel_changes/generated_units.hpp"
#include "kernel_changes/kernel_lookup.hpp"

namespace kforecast::kernel_changes {

using kernels::RevisionSources;

namespace {

// The file among `path` and the headers it includes that defines the macro `name`, or `path`.
std::string macro_file(const RevisionSources& sources, const std::string& path, std::string_view name) {
  for (const std::string& file : sources.closure(path))
    if (std::ranges::any_of(sources.scanned(file).macros, [&](const kernels::Macro& m) { return m.name == name; }))
      return file;
  return path;
}

}  // namespace

void add_generated_changes(const RevisionSources& base, const RevisionSources& head,
                           const std::map<std::string, std::string>& to_head_path,
                           const std::set<std::string, std::less<>>& touched, ChangeAnalysis& analysis) {
  std::map<std::string, std::string> to_base_path;
  for (const auto& [old_path, new_path] : to_head_path) to_base_path[new_path] = old_path;
  for (const std::string& path : touched) {
    const bool in_head = head.files().contains(path);
    if (!in_head && !base.files().contains(path)) continue;
    const RevisionSources& sources = in_head ? head : base;
    const auto generated = generated_file(sources.files().at(path));
    if (!generated) continue;
    const auto base_path = to_base_path.contains(path) ? to_base_path.at(path) : path;
    const std::string_view how = !in_head ? "removed" : !base.files().contains(base_path) ? "added" : "changed";
    const std::string reason = fmt::format("instantiated by generated file {} ({})", path, how);
    const KernelOrigin origin{KernelOrigin::Kind::generator, generated->generator, path};
    for (const std::string& kernel : kernels_instantiated(sources, path)) {
      for (const KernelSite& site : kernels_named(sources, path, kernel)) {
        // A removed generated file's kernels are found in the base: the same kernel at the head.
        const auto head_file = to_head_path.contains(site.file) ? to_head_path.at(site.file) : site.file;
        const auto found = in_head ? std::optional(site) : kernel_in(head, head_file, site.qualified_name);
        if (!found) continue;
        const KernelSite& head_site = *found;
        if (ChangedKernel* reported = reported_kernel(analysis, head_site)) {
          if (std::ranges::find(reported->reasons, reason) == reported->reasons.end())
            reported->reasons.push_back(reason);
          if (!reported->produced_by) reported->produced_by = origin;
          continue;
        }
        const auto mapped = to_base_path.find(head_site.file);
        const auto base_site =
            kernel_in(base, mapped == to_base_path.end() ? head_site.file : mapped->second, head_site.qualified_name);
        if (base_site) report_modified(analysis, {KernelChange::modified, base_site, head_site, {reason}, origin});
      }
    }
  }
}

void note_origins(const RevisionSources& base, const RevisionSources& head, ChangeAnalysis& analysis) {
  for (ChangedKernel& kernel : analysis.kernels) {
    const RevisionSources& sources = kernel.head ? head : base;
    const KernelSite& site = kernel.head ? *kernel.head : *kernel.base;
    const kernels::Function& function = sources.scanned(site.file).functions[site.function_index];
    if (!kernel.produced_by && function.from_macro) {
      kernel.produced_by = {KernelOrigin::Kind::macro, function.macro, macro_file(sources, site.file, function.macro)};
    } else if (!kernel.produced_by) {
      if (const auto generated = generated_file(sources.files().at(site.file)))
        kernel.produced_by = {KernelOrigin::Kind::generator, generated->generator, site.file};
    }
    if (!kernel.produced_by || kernel.change == KernelChange::removed) continue;
    const KernelOrigin& origin = *kernel.produced_by;
    kernel.reasons.push_back(
        origin.kind == KernelOrigin::Kind::macro
            ? fmt::format("written by macro {} ({}): compiling the units that expand it settles whether its code "
                          "changed",
                          origin.name, origin.file)
            : fmt::format("generated ({}{}): compiling the units that instantiate it settles whether its code changed",
                          origin.file, origin.name.empty() ? "" : ", by " + origin.name));
  }
}

}  // namespace kforecast::kernel_changes
