// SPDX-License-Identifier: Apache-2.0
#include "kernel_changes/launch_changes.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "kernel_changes/kernel_lookup.hpp"
#include "kernel_changes/launch_inputs.hpp"
#include "kernels/launch_sites.hpp"

namespace kforecast::kernel_changes {

using kernels::LaunchSite;
using kernels::RevisionSources;

namespace {

// The launches of `path` whose configuration or inputs changed: (kernel as written, reason).
std::vector<std::pair<std::string, std::string>> changed_launches_of(const RevisionSources& base,
                                                                     const std::string& base_path,
                                                                     const RevisionSources& head,
                                                                     const std::string& path, bool text_changed) {
  std::vector<std::pair<std::string, std::string>> launched;
  if (text_changed)
    for (LaunchSite& launch : kernels::changed_launches(base.launches(base_path), head.launches(path)))
      launched.emplace_back(std::move(launch.kernel),
                            launch.through.empty()
                                ? fmt::format("launch configuration at {}:{} changed", path, launch.line)
                                : fmt::format("launch configuration at {}:{} changed (launched through {})", path,
                                              launch.line, launch.through));
  for (LaunchInputChange& change : changed_launch_inputs(base, base_path, head, path))
    launched.emplace_back(std::move(change.kernel), std::move(change.reason));
  return launched;
}

}  // namespace

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
    if (head.launches(path).empty()) continue;
    const bool text_changed = touched.contains(path) && base_text->second != head_text;
    for (const auto& [kernel, reason] : changed_launches_of(base, base_path, head, path, text_changed)) {
      for (const KernelSite& head_site : kernels_named(head, path, kernel)) {
        if (ChangedKernel* reported = reported_kernel(analysis, head_site)) {
          if (reported->change != KernelChange::added &&
              std::ranges::find(reported->reasons, reason) == reported->reasons.end())
            reported->reasons.push_back(reason);
          continue;
        }
        const auto kernel_base_file = to_base_path.find(head_site.file);
        const auto base_site =
            kernel_in(base, kernel_base_file == to_base_path.end() ? head_site.file : kernel_base_file->second,
                      head_site.qualified_name);
        if (base_site) report_modified(analysis, {KernelChange::modified, base_site, head_site, {reason}});
      }
    }
  }
}

}  // namespace kforecast::kernel_changes
