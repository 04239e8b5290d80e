// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/changed_kernels.hpp"

#include <algorithm>
#include <future>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "kernel_changes/kernel_lookup.hpp"
#include "kernel_changes/kernel_origins.hpp"
#include "kernel_changes/kernel_pairing.hpp"
#include "kernel_changes/launch_changes.hpp"
#include "kernel_changes/library_kernels.hpp"
#include "kernels/fingerprint.hpp"

namespace kforecast::kernel_changes {

using kernels::Dependencies;
using kernels::RevisionSources;
using kernels::Span;
using kernels::TokenForm;

namespace {

// The kernels of the files whose closure a touched path is in: key (file as in the head's
// naming, qualified name) -> site. Definitions that share a name in one file (overloads chosen by
// enable_if, explicit specializations) are keyed by their order, "name#2" for the second: keyed
// by name alone, only the first was compared, and an edit to another passed unseen. One inserted
// before another shifts the keys, which reports both as changed: too much, never too little.
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
    std::map<std::string_view, int> seen;  // definitions of each name so far in this file
    for (std::size_t i = 0; i < functions.size(); ++i) {
      if (!is_kernel(functions[i])) continue;
      const std::string& name = functions[i].qualified_name;
      const int ordinal = ++seen[name];
      kernels.try_emplace({key_path, ordinal == 1 ? name : fmt::format("{}#{}", name, ordinal)},
                          KernelSite{path, name, functions[i].whole.first_line, i});
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
      reasons.push_back(name == "kernel" ? std::string(own_source_reason) : fmt::format("{} changed", name));
  }
  for (const auto& [name, fingerprint] : base)
    if (!head.contains(name)) reasons.push_back(fmt::format("{} no longer used", name));
  return reasons;
}

// The same dependency under another qualification (device function f became ns::f, the
// namespace wrapped around both) with the same tokens is no change: both sides drop it.
void drop_requalified(Dependencies& base, Dependencies& head) {
  const auto split = [](const std::string& label) {
    const std::size_t space = label.rfind(' ');
    const std::string_view kind =
        space == std::string::npos ? std::string_view{} : std::string_view(label).substr(0, space);
    std::string_view name =
        space == std::string::npos ? std::string_view(label) : std::string_view(label).substr(space + 1);
    const std::size_t colons = name.rfind("::");
    if (colons != std::string_view::npos) name = name.substr(colons + 2);
    return std::pair(kind, name);
  };
  std::map<std::tuple<std::string_view, std::string_view, std::uint64_t>, std::string> only_in_base;
  for (const auto& [label, fingerprint] : base)
    if (!head.contains(label)) {
      const auto [kind, name] = split(label);
      only_in_base.emplace(std::tuple(kind, name, fingerprint), label);
    }
  std::vector<std::pair<std::string, std::string>> same;
  for (const auto& [label, fingerprint] : head) {
    if (base.contains(label)) continue;
    const auto [kind, name] = split(label);
    const auto found = only_in_base.find(std::tuple(kind, name, fingerprint));
    if (found == only_in_base.end()) continue;
    same.emplace_back(found->second, label);
    only_in_base.erase(found);
  }
  for (const auto& [base_label, head_label] : same) {
    base.erase(base_label);
    head.erase(head_label);
  }
}

std::vector<std::string> reasons_for_pair(const RevisionSources& base, const KernelSite& base_site,
                                          const RevisionSources& head, const KernelSite& head_site) {
  Dependencies before = base.dependencies(base_site.file, base_site.function_index);
  Dependencies after = head.dependencies(head_site.file, head_site.function_index);
  drop_requalified(before, after);
  return reasons_between(before, after);
}

std::string_view whole_text(const RevisionSources& sources, const KernelSite& site) {
  const Span& span = sources.scanned(site.file).functions[site.function_index].whole;
  return std::string_view(sources.files().at(site.file)).substr(span.begin, span.end - span.begin);
}

std::uint64_t written_fingerprint(const RevisionSources& sources, const KernelSite& site) {
  return token_fingerprint(sources.files().at(site.file),
                           sources.scanned(site.file).functions[site.function_index].whole,
                           {.form = TokenForm::as_written});
}

// A kernel that did not change (no reason): noted where its own text did, as comments or
// whitespace only where its tokens read as before, else as formatting only.
void note_unchanged_text(const RevisionSources& base, const KernelSite& base_site, const RevisionSources& head,
                         const KernelSite& head_site, ChangeAnalysis& analysis) {
  if (whole_text(base, base_site) == whole_text(head, head_site)) return;
  auto& list = written_fingerprint(base, base_site) == written_fingerprint(head, head_site) ? analysis.comment_only
                                                                                            : analysis.formatting_only;
  list.push_back(fmt::format("{}: {}", head_site.file, head_site.qualified_name));
}

// Removed and added kernels that are one kernel moved (kernel_pairing.hpp): a change of
// qualification alone is no change (comments aside), with edits it is a modification; an
// identical body under a new name is a rename; a similar one is a modification that says so.
// Appends the added kernels, then those still removed, to the analysis.
void add_moved_kernels(const RevisionSources& base, const RevisionSources& head,
                       const std::map<std::string, std::string>& to_head_path, std::vector<ChangedKernel>& removed,
                       std::vector<ChangedKernel>& added, ChangeAnalysis& analysis) {
  std::vector<bool> unchanged(added.size(), false);
  std::vector<KernelSite> removed_sites, added_sites;
  for (const auto& kernel : removed) removed_sites.push_back(*kernel.base);
  for (const auto& kernel : added) added_sites.push_back(*kernel.head);
  for (const KernelPair& pair : pair_removed_with_added(base, removed_sites, head, added_sites, to_head_path)) {
    ChangedKernel& gone = removed[pair.removed];
    ChangedKernel& fresh = added[pair.added];
    const std::string old_name = gone.base->qualified_name;
    fresh.base = gone.base;
    gone.head = fresh.head;  // paired: no longer a removal
    switch (pair.by) {
      case PairedBy::qualification: {
        auto reasons = reasons_for_pair(base, *fresh.base, head, *fresh.head);
        if (reasons.empty()) {
          note_unchanged_text(base, *fresh.base, head, *fresh.head, analysis);
          unchanged[pair.added] = true;
          break;
        }
        fresh.change = KernelChange::modified;
        fresh.reasons = std::move(reasons);
        fresh.reasons.push_back(fmt::format("qualified name changed from {}", old_name));
        break;
      }
      case PairedBy::identical_code:
        fresh.change = KernelChange::renamed;
        fresh.reasons.push_back(fmt::format("renamed from {}", old_name));
        break;
      case PairedBy::similar_code: {
        fresh.change = KernelChange::modified;
        fresh.reasons.push_back(fmt::format("renamed from {}", old_name));
        for (auto& reason : reasons_for_pair(base, *fresh.base, head, *fresh.head))
          fresh.reasons.push_back(std::move(reason));
        break;
      }
    }
  }
  for (std::size_t i = 0; i < added.size(); ++i)
    if (!unchanged[i]) analysis.kernels.push_back(std::move(added[i]));
  for (auto& kernel : removed)
    if (!kernel.head) analysis.kernels.push_back(std::move(kernel));
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
    else
      note_unchanged_text(base, base_site, head, head_site, analysis);
  }
  for (const auto& [key, base_site] : base_kernels)
    if (!head_kernels.contains(key)) removed.push_back({KernelChange::removed, base_site, std::nullopt, {}});

  add_moved_kernels(base, head, to_head_path, removed, added, analysis);
  add_launch_changes(base, head, to_head_path, touched, analysis);
  add_library_kernel_changes(base, head, to_head_path, touched, analysis);
  add_generated_changes(base, head, to_head_path, touched, analysis);
  note_origins(base, head, analysis);
  return analysis;
}

}  // namespace kforecast::kernel_changes
