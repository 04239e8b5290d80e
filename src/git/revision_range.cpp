// SPDX-License-Identifier: Apache-2.0
#include "git/revision_range.hpp"

#include <fmt/format.h>

namespace kforecast::git {
namespace {

bool is_set(const EnvLookup& env, std::string_view name) {
  const auto value = env(name);
  return value && !value->empty();
}

Result<RevisionRange> from_revisions(const Repository& repository, std::string_view base, std::string_view head,
                                     std::string origin) {
  auto base_commit = repository.resolve(base);
  if (!base_commit) return std::unexpected(base_commit.error());
  auto head_commit = repository.resolve(head);
  if (!head_commit) return std::unexpected(head_commit.error());
  return RevisionRange{std::move(*base_commit), std::move(*head_commit), std::move(origin)};
}

}  // namespace

Result<RevisionRange> resolve_range(const Repository& repository, const RangeRequest& request, const EnvLookup& env) {
  const std::string head = request.head.value_or("HEAD");
  if (request.base) return from_revisions(repository, *request.base, head, "--base/--head");

  // GitLab gives the merge request's merge-base directly.
  if (is_set(env, "CI_MERGE_REQUEST_IID") && is_set(env, "CI_MERGE_REQUEST_DIFF_BASE_SHA"))
    return from_revisions(repository, *env("CI_MERGE_REQUEST_DIFF_BASE_SHA"),
                          request.head.value_or(env("CI_COMMIT_SHA").value_or("HEAD")), "GitLab merge request");

  if (env("GITHUB_ACTIONS") == "true" && is_set(env, "GITHUB_BASE_REF"))
    return usage_error(
        "reading base and head from the pull-request event is not built yet: pass them explicitly, "
        "--base ${{ github.event.pull_request.base.sha }} --head ${{ github.event.pull_request.head.sha }}");

  const auto upstream = repository.upstream();
  if (!upstream)
    return usage_error(
        "no --base given and the current branch has no upstream to compare with: pass --base REV "
        "(for example --base origin/main)");
  auto base = repository.merge_base(*upstream, head);
  if (!base) return std::unexpected(base.error());
  return from_revisions(repository, *base, head, fmt::format("merge-base with {}", *upstream));
}

}  // namespace kforecast::git
