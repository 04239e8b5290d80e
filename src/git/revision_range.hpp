// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which two revisions a `kforecast pr` compares: the flags when given; in GitLab CI the merge
// request's variables; in GitHub Actions the event file (pull request, merge queue, push);
// otherwise the merge-base with the upstream branch, and HEAD.

#include <optional>
#include <string>

#include "base/environment.hpp"
#include "git/repository.hpp"

namespace kforecast::git {

struct RevisionRange {
  Commit base;
  Commit head;
  std::string origin;  // how they were chosen, for the report: "--base/--head", "GitLab merge request", ...
};

struct RangeRequest {
  std::optional<std::string> base;  // --base
  std::optional<std::string> head;  // --head
};

Result<RevisionRange> resolve_range(const Repository& repository, const RangeRequest& request, const EnvLookup& env);

}  // namespace kforecast::git
