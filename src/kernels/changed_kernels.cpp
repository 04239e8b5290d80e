// SPDX-License-Identifier: Apache-2.0
#include "kernels/changed_kernels.hpp"

#include <algorithm>
#include <future>
#include <map>

#include <fmt/format.h>

#include "kernels/fingerprint.hpp"

namespace kforecast::kernels {
namespace {

bool is_kernel(const Function& function) { return function.kind == FunctionKind::global && function.has_body; }

// The kernels of the files whose closure a touched path is in: key (file as in the head's
// naming, qualified name) -> site.
using KernelKey = std::pair<std::string, std::string>;

std::map<KernelKey, KernelSite> touched_kernels(const RevisionSources& sources,
                                                const std::set<std::string, std::less<>>& touched,
                                                const std::map<std::string, std::string>& to_head_path) {
  std::map<KernelKey, KernelSite> kernels;
  for (const auto& [path, text] : sources.files()) {
    const auto closure = sources.closure(path);
    if (std::ranges::none_of(closure, [&](const auto& file) { return touched.contains(file); })) continue;
    const auto& functions = sources.scanned(path).functions;
    const auto mapped = to_head_path.find(path);
    const std::string key_path = mapped == to_head_path.end() ? path : mapped->second;
    for (std::size_t i = 0; i < functions.size(); ++i) {
      if (!is_kernel(functions[i])) continue;
      kernels.try_emplace({key_path, functions[i].qualified_name},
                          KernelSite{path, functions[i].qualified_name, functions[i].whole.first_line, i});
    }
  }
  return kernels;
}

std::vector<std::string> reasons_between(const Dependencies& base, const Dependencies& head) {
  std::vector<std::string> reasons;
  for (const auto& [name, fingerprint] : head) {
    auto it = base.find(name);
    if (it == base.end())
      reasons.push_back(fmt::format("{} added", name));
    else if (it->second != fingerprint)
      reasons.push_back(name == "kernel" ? "the kernel's own source changed" : fmt::format("{} changed", name));
  }
  for (const auto& [name, fingerprint] : base)
    if (!head.contains(name)) reasons.push_back(fmt::format("{} no longer used", name));
  return reasons;
}

// What identifies a kernel's code apart from its name: body tokens and parameter types.
std::pair<std::uint64_t, std::string> shape(const RevisionSources& sources, const KernelSite& site) {
  const Function& function = sources.scanned(site.file).functions[site.function_index];
  std::string parameters;
  for (const auto& parameter : function.parameters) parameters += parameter.type + ",";
  return {token_fingerprint(sources.files().at(site.file), function.body), parameters};
}

std::string_view whole_text(const RevisionSources& sources, const KernelSite& site) {
  const Span& span = sources.scanned(site.file).functions[site.function_index].whole;
  return std::string_view(sources.files().at(site.file)).substr(span.begin, span.end - span.begin);
}

}  // namespace

std::string_view to_string(KernelChange change) {
  switch (change) {
    case KernelChange::modified:
      return "modified";
    case KernelChange::added:
      return "added";
    case KernelChange::removed:
      return "removed";
    case KernelChange::renamed:
      return "renamed";
  }
  return "modified";
}

std::vector<std::string> kernel_change_reasons(const RevisionSources& base, const KernelSite& base_site,
                                               const RevisionSources& head, const KernelSite& head_site) {
  return reasons_between(base.dependencies(base_site.file, base_site.function_index),
                         head.dependencies(head_site.file, head_site.function_index));
}

ChangeAnalysis find_changed_kernels(const RevisionSources& base, const RevisionSources& head,
                                    std::span<const FileRename> renames,
                                    const std::set<std::string, std::less<>>& touched) {
  std::map<std::string, std::string> to_head_path;
  for (const auto& rename : renames) to_head_path[rename.old_path] = rename.new_path;
  const auto base_kernels = touched_kernels(base, touched, to_head_path);
  const auto head_kernels = touched_kernels(head, touched, {});

  ChangeAnalysis analysis;
  std::vector<ChangedKernel> added, removed;
  // The kernels at both revisions; their dependencies are found for the base on a second
  // thread while the head's are found on this one (each RevisionSources is used by one thread).
  std::vector<std::pair<const KernelSite*, const KernelSite*>> kept;
  for (const auto& [key, head_site] : head_kernels)
    if (auto base_it = base_kernels.find(key); base_it != base_kernels.end())
      kept.emplace_back(&base_it->second, &head_site);
  auto base_dependencies = std::async(std::launch::async, [&] {
    std::vector<Dependencies> found;
    for (const auto& [base_site, head_site] : kept)
      found.push_back(base.dependencies(base_site->file, base_site->function_index));
    return found;
  });
  std::vector<Dependencies> head_dependencies;
  for (const auto& [base_site, head_site] : kept)
    head_dependencies.push_back(head.dependencies(head_site->file, head_site->function_index));
  const std::vector<Dependencies> base_found = base_dependencies.get();

  std::size_t next_kept = 0;
  for (const auto& [key, head_site] : head_kernels) {
    auto base_it = base_kernels.find(key);
    if (base_it == base_kernels.end()) {
      added.push_back({KernelChange::added, std::nullopt, head_site, {}});
      continue;
    }
    const auto& base_site = base_it->second;
    auto reasons = reasons_between(base_found[next_kept], head_dependencies[next_kept]);
    ++next_kept;
    if (!reasons.empty())
      analysis.kernels.push_back({KernelChange::modified, base_site, head_site, std::move(reasons)});
    else if (whole_text(base, base_site) != whole_text(head, head_site))
      analysis.comment_only.push_back(fmt::format("{}: {}", head_site.file, head_site.qualified_name));
  }
  for (const auto& [key, base_site] : base_kernels)
    if (!head_kernels.contains(key)) removed.push_back({KernelChange::removed, base_site, std::nullopt, {}});

  // A removed and an added kernel of the same file with the same body and parameters: a rename.
  for (auto& gone : removed) {
    const std::string gone_file =
        to_head_path.contains(gone.base->file) ? to_head_path.at(gone.base->file) : gone.base->file;
    for (auto& fresh : added) {
      if (fresh.change != KernelChange::added || fresh.head->file != gone_file) continue;
      if (shape(base, *gone.base) != shape(head, *fresh.head)) continue;
      fresh.change = KernelChange::renamed;
      fresh.base = gone.base;
      fresh.reasons.push_back(fmt::format("renamed from {}", gone.base->qualified_name));
      gone.change = KernelChange::renamed;  // consumed
      break;
    }
  }
  for (auto& kernel : added) analysis.kernels.push_back(std::move(kernel));
  for (auto& kernel : removed)
    if (kernel.change == KernelChange::removed) analysis.kernels.push_back(std::move(kernel));
  return analysis;
}

}  // namespace kforecast::kernels
