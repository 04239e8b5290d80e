// SPDX-License-Identifier: Apache-2.0
#include "git/revision_range.hpp"

#include <fmt/format.h>

#include "base/text_file.hpp"
#include "git/github_event.hpp"

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

// actions/checkout fetches one commit unless told otherwise, so the base is usually missing.
Error with_fetch_depth_hint(Error error) {
  error.message += "; the base commit must be in the clone: set `fetch-depth: 0` on actions/checkout";
  return error;
}

Result<RevisionRange> from_github_event(const Repository& repository, const RangeRequest& request,
                                        const EnvLookup& env) {
  const auto path = *env("GITHUB_EVENT_PATH");
  auto text = read_text_file(path, "GitHub event file");
  if (!text) return std::unexpected(text.error());
  auto commits = parse_github_event(*text, env("GITHUB_EVENT_NAME").value_or(""), path);
  if (!commits) return std::unexpected(commits.error());
  const std::string head = request.head.value_or(commits->head);
  const auto origin = fmt::format("GitHub {}", commits->description);
  if (!commits->compare_with_merge_base) {
    auto range = from_revisions(repository, commits->base, head, origin);
    if (!range) return std::unexpected(with_fetch_depth_hint(range.error()));
    return range;
  }
  // A pull request's changes are its head against where it forked from the base branch, as
  // GitHub's own diff shows them; the base branch's later commits are not the PR's.
  auto base = repository.merge_base(commits->base, head);
  if (!base) return std::unexpected(with_fetch_depth_hint(base.error()));
  return from_revisions(repository, *base, head, origin);
}

}  // namespace

Result<RevisionRange> resolve_range(const Repository& repository, const RangeRequest& request, const EnvLookup& env) {
  const std::string head = request.head.value_or("HEAD");
  if (request.base) return from_revisions(repository, *request.base, head, "--base/--head");

  // GitLab gives the merge request's merge-base directly.
  if (is_set(env, "CI_MERGE_REQUEST_IID") && is_set(env, "CI_MERGE_REQUEST_DIFF_BASE_SHA"))
    return from_revisions(repository, *env("CI_MERGE_REQUEST_DIFF_BASE_SHA"),
                          request.head.value_or(env("CI_COMMIT_SHA").value_or("HEAD")), "GitLab merge request");

  if (env("GITHUB_ACTIONS") == "true" && is_set(env, "GITHUB_EVENT_PATH"))
    return from_github_event(repository, request, env);

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
