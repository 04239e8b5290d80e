// SPDX-License-Identifier: Apache-2.0
#include "kernels/changed_kernels.hpp"

#include <algorithm>
#include <future>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "kernels/fingerprint.hpp"
#include "kernels/generated_units.hpp"
#include "kernels/kernel_pairing.hpp"
#include "kernels/launch_inputs.hpp"
#include "kernels/launch_sites.hpp"
#include "kernels/library_kernels.hpp"

namespace kforecast::kernels {
namespace {

bool is_kernel(const Function& function) { return function.kind == FunctionKind::global && function.has_body; }

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
      reasons.push_back(name == "kernel" ? "the kernel's own source changed" : fmt::format("{} changed", name));
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

// The kernels a launch names as `written` ("k", "ns::k"): those of the launching file and its
// headers, else those of any file (a kernel declared in a header, defined elsewhere).
std::vector<KernelSite> launched_kernels(const RevisionSources& sources, const std::string& file,
                                         std::string_view written) {
  const std::size_t colons = written.rfind("::");
  const std::string_view name = colons == std::string_view::npos ? written : written.substr(colons + 2);
  std::vector<KernelSite> found;
  auto search = [&](const std::string& path) {
    const auto& functions = sources.scanned(path).functions;
    for (std::size_t i = 0; i < functions.size(); ++i)
      if (is_kernel(functions[i]) && functions[i].name == name &&
          (written == name || functions[i].qualified_name.ends_with(written)))
        found.push_back({path, functions[i].qualified_name, functions[i].whole.first_line, i});
  };
  for (const auto& path : sources.closure(file)) search(path);
  if (found.empty())
    for (const auto& [path, text] : sources.files()) search(path);
  return found;
}

std::optional<KernelSite> kernel_in(const RevisionSources& sources, const std::string& file,
                                    const std::string& qualified_name) {
  if (!sources.files().contains(file)) return std::nullopt;
  const auto& functions = sources.scanned(file).functions;
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (is_kernel(functions[i]) && functions[i].qualified_name == qualified_name)
      return KernelSite{file, qualified_name, functions[i].whole.first_line, i};
  return std::nullopt;
}

// A kernel launched with a new configuration (grid, block, shared memory, stream, template
// arguments) in a touched file runs differently though its code is the same: it changed, and
// a kernel already changed gets the reason too. So does one whose launch reads the same but
// names a constant, a macro or a local whose definition changed (launch_inputs.hpp), in the
// launching file or a header it includes. Added kernels have no configuration to compare.
void add_launch_changes(const RevisionSources& base, const RevisionSources& head,
                        const std::map<std::string, std::string>& to_head_path,
                        const std::set<std::string, std::less<>>& touched, ChangeAnalysis& analysis) {
  std::map<std::string, std::string> to_base_path;
  for (const auto& [old_path, new_path] : to_head_path) to_base_path[new_path] = old_path;
  for (const auto& [path, head_text] : head.files()) {
    const auto renamed = to_base_path.find(path);
    const std::string base_path = renamed == to_base_path.end() ? path : renamed->second;
    const auto base_text = base.files().find(base_path);
    if (base_text == base.files().end()) continue;
    const auto closure = head.closure(path);
    if (std::ranges::none_of(closure, [&](const auto& file) { return touched.contains(file); })) continue;
    const auto& head_launches = head.launches(path);
    if (head_launches.empty()) continue;
    std::vector<std::pair<std::string, std::string>> launched;  // kernel as written, reason
    if (touched.contains(path) && base_text->second != head_text)
      for (LaunchSite& launch : changed_launches(base.launches(base_path), head_launches))
        launched.emplace_back(std::move(launch.kernel),
                              launch.through.empty()
                                  ? fmt::format("launch configuration at {}:{} changed", path, launch.line)
                                  : fmt::format("launch configuration at {}:{} changed (launched through {})", path,
                                                launch.line, launch.through));
    for (LaunchInputChange& change : changed_launch_inputs(base, base_path, head, path))
      launched.emplace_back(std::move(change.kernel), std::move(change.reason));
    for (const auto& [kernel, reason] : launched) {
      for (const KernelSite& head_site : launched_kernels(head, path, kernel)) {
        const auto reported = std::ranges::find_if(analysis.kernels, [&](const ChangedKernel& changed) {
          return changed.head && changed.head->file == head_site.file &&
                 changed.head->qualified_name == head_site.qualified_name;
        });
        if (reported != analysis.kernels.end()) {
          if (reported->change != KernelChange::added &&
              std::ranges::find(reported->reasons, reason) == reported->reasons.end())
            reported->reasons.push_back(reason);
          continue;
        }
        const auto kernel_base_file = to_base_path.find(head_site.file);
        const auto base_site =
            kernel_in(base, kernel_base_file == to_base_path.end() ? head_site.file : kernel_base_file->second,
                      head_site.qualified_name);
        if (!base_site) continue;
        // Before the removed kernels, which come last; no longer a comment or formatting change.
        const auto first_removed = std::ranges::find_if(analysis.kernels, [](const auto& k) { return !k.head; });
        analysis.kernels.insert(first_removed, {KernelChange::modified, base_site, head_site, {reason}});
        const std::string noted = fmt::format("{}: {}", head_site.file, head_site.qualified_name);
        std::erase(analysis.comment_only, noted);
        std::erase(analysis.formatting_only, noted);
      }
    }
  }
}

// A library's kernel that runs the project's class (library_kernels.hpp) changed where the
// class's operator(), or what it reaches, did. Reported under the operator()'s name, the first
// reason naming the library kernel. Classes at one revision only are left out: no kernel of
// the base or the head is theirs to compare.
void add_library_kernel_changes(const RevisionSources& base, const RevisionSources& head,
                                const std::map<std::string, std::string>& to_head_path,
                                const std::set<std::string, std::less<>>& touched, ChangeAnalysis& analysis) {
  const auto head_kernels = library_kernels(head);
  if (head_kernels.empty()) return;
  std::map<std::pair<std::string, std::string>, KernelSite> base_by_op;  // (head path, op) -> site
  for (const LibraryKernel& kernel : library_kernels(base)) {
    const auto mapped = to_head_path.find(kernel.body.file);
    base_by_op.emplace(std::pair(mapped == to_head_path.end() ? kernel.body.file : mapped->second, kernel.op),
                       kernel.body);
  }
  for (const LibraryKernel& kernel : head_kernels) {
    const auto closure = head.closure(kernel.body.file);
    if (std::ranges::none_of(closure, [&](const auto& file) { return touched.contains(file); })) continue;
    const auto base_site = base_by_op.find({kernel.body.file, kernel.op});
    if (base_site == base_by_op.end()) continue;
    auto reasons = reasons_between(base.dependencies(base_site->second.file, base_site->second.function_index),
                                   head.dependencies(kernel.body.file, kernel.body.function_index));
    if (reasons.empty()) continue;
    reasons.insert(reasons.begin(),
                   fmt::format("library kernel {} runs {}", kernel.name(), kernel.body.qualified_name));
    const auto first_removed = std::ranges::find_if(analysis.kernels, [](const auto& k) { return !k.head; });
    analysis.kernels.insert(first_removed,
                            {KernelChange::modified, base_site->second, kernel.body, std::move(reasons)});
  }
}

// The kernels a changed generated file instantiates (generated_units.hpp) changed with it: the
// generator added, removed or rewrote an instantiation though no kernel's text changed.
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
      for (const KernelSite& site : launched_kernels(sources, path, kernel)) {
        // A removed generated file's kernels are found in the base: the same kernel at the head.
        const auto head_file = to_head_path.contains(site.file) ? to_head_path.at(site.file) : site.file;
        const auto found = in_head ? std::optional(site) : kernel_in(head, head_file, site.qualified_name);
        if (!found) continue;
        const KernelSite& head_site = *found;
        const auto reported = std::ranges::find_if(analysis.kernels, [&](const ChangedKernel& changed) {
          return changed.head && changed.head->file == head_site.file &&
                 changed.head->qualified_name == head_site.qualified_name;
        });
        if (reported != analysis.kernels.end()) {
          if (std::ranges::find(reported->reasons, reason) == reported->reasons.end())
            reported->reasons.push_back(reason);
          if (!reported->produced_by) reported->produced_by = origin;
          continue;
        }
        const auto mapped = to_base_path.find(head_site.file);
        const auto base_site =
            kernel_in(base, mapped == to_base_path.end() ? head_site.file : mapped->second, head_site.qualified_name);
        if (!base_site) continue;
        const auto first_removed = std::ranges::find_if(analysis.kernels, [](const auto& k) { return !k.head; });
        analysis.kernels.insert(first_removed, {KernelChange::modified, base_site, head_site, {reason}, origin});
        const std::string noted = fmt::format("{}: {}", head_site.file, head_site.qualified_name);
        std::erase(analysis.comment_only, noted);
        std::erase(analysis.formatting_only, noted);
      }
    }
  }
}

// The file among `path` and the headers it includes that defines the macro `name`, or `path`.
std::string macro_file(const RevisionSources& sources, const std::string& path, std::string_view name) {
  for (const std::string& file : sources.closure(path))
    if (std::ranges::any_of(sources.scanned(file).macros, [&](const Macro& m) { return m.name == name; })) return file;
  return path;
}

// Names what writes each kernel where a macro does, or a generator (its file says so), and
// what settles its machine code.
void note_origins(const RevisionSources& base, const RevisionSources& head, ChangeAnalysis& analysis) {
  for (ChangedKernel& kernel : analysis.kernels) {
    const RevisionSources& sources = kernel.head ? head : base;
    const KernelSite& site = kernel.head ? *kernel.head : *kernel.base;
    const Function& function = sources.scanned(site.file).functions[site.function_index];
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

}  // namespace kforecast::kernels
