// SPDX-License-Identifier: Apache-2.0
#include "change/change_reading.hpp"

#include <future>

namespace kforecast::change {

Result<ReadChange> read_change(const git::Repository& repository, const ChangeRequest& request, const EnvLookup& env) {
  ReadChange change;
  std::string diff_text;
  if (request.patch) {
    change.base = "patch base", change.head = "working tree", change.origin = "the patch given with --diff";
    auto sources = read_patch_sources(repository, *request.patch);
    if (!sources) return std::unexpected(sources.error());
    change.sources = std::move(*sources);
    return change;
  }
  if (request.staged) {
    auto commit = repository.resolve("HEAD");
    if (!commit) return std::unexpected(commit.error());
    auto staged = repository.staged_diff();
    if (!staged) return std::unexpected(staged.error());
    change.base = commit->sha, change.origin = "staged changes against HEAD", diff_text = std::move(*staged);
  } else {
    auto range = git::resolve_range(repository, request.range, env);
    if (!range) return std::unexpected(range.error());
    auto diff = repository.changed_files_diff(range->base.sha, range->head.sha);  // only the files are used
    if (!diff) return std::unexpected(diff.error());
    change.base = range->base.sha, change.head = range->head.sha, change.origin = range->origin;
    diff_text = std::move(*diff);
  }
  auto sources = read_pr_sources(repository, change.base, change.head, change.origin, diff_text);
  if (!sources) return std::unexpected(sources.error());
  change.sources = std::move(*sources);
  return change;
}

ScannedChange scan_change(const PrSources& sources, Progress& progress) {
  progress.stage("scanning both revisions");
  auto base_scan = std::async(std::launch::async, [&] { return kernels::RevisionSources(sources.base_files); });
  kernels::RevisionSources head(sources.head_files);
  kernels::RevisionSources base = base_scan.get();
  progress.stage("finding the changed kernels");
  auto analysis = kernel_changes::find_changed_kernels(base, head, sources.renames, sources.touched);
  return {std::move(base), std::move(head), std::move(analysis)};
}

}  // namespace kforecast::change
