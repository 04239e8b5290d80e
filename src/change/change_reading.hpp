// SPDX-License-Identifier: Apache-2.0
#pragma once

// What `kforecast pr` compares, read and scanned: a patch (--diff), the staged changes against
// HEAD (--staged), or a revision range (--base/--head, else the CI's own variables); the CUDA
// sources at both sides (change/pr_sources.hpp), then both revisions scanned and the changed
// kernels found.

#include <optional>
#include <string>

#include "base/environment.hpp"
#include "base/error.hpp"
#include "base/progress.hpp"
#include "change/pr_sources.hpp"
#include "git/repository.hpp"
#include "git/revision_range.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::change {

struct ChangeRequest {
  std::optional<std::string> patch;  // --diff: the patch's text
  bool staged = false;               // --staged
  git::RangeRequest range;           // else: --base and --head, each optional
};

struct ReadChange {
  std::string base;    // a commit, or "patch base"
  std::string head;    // a commit, "working tree", or "" for the index
  std::string origin;  // how the revisions were chosen, for the report's first note
  PrSources sources;
};

Result<ReadChange> read_change(const git::Repository& repository, const ChangeRequest& request, const EnvLookup& env);

struct ScannedChange {
  kernels::RevisionSources base;
  kernels::RevisionSources head;
  kernel_changes::ChangeAnalysis analysis;
};

// Both revisions scanned side by side (the machine has a second core, and nothing else is left
// to overlap with), then the changed kernels between them. `progress` hears the stages.
ScannedChange scan_change(const PrSources& sources, Progress& progress);

}  // namespace kforecast::change
