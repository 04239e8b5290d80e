// SPDX-License-Identifier: Apache-2.0
#pragma once

// The two commits a GitHub Actions run compares, read from its event file ($GITHUB_EVENT_PATH).
// The file is untrusted input: any shape problem is an error naming the file and the field.

#include <string>
#include <string_view>

#include "base/error.hpp"

namespace kforecast::git {

struct GithubEventCommits {
  std::string base;  // pull request: the base branch's tip when the event fired
  std::string head;  // pull request: the head branch's tip
  // Whether `base` is a branch tip the head forked from (pull requests, merge queues), so the
  // changes are head against their merge-base; a push's `before` is the head's own parent chain.
  bool compare_with_merge_base = true;
  std::string description;          // "pull request #12", "merge queue", "push"
  std::string pull_request_number;  // "12" for pull request events; empty otherwise
  // Pull request events only, as the event has them ("" where absent): the author's relation to
  // the repository (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, FIRST_TIMER, FIRST_TIME_CONTRIBUTOR,
  // NONE) and the full names of the head's and the base's repositories (they differ for a fork).
  std::string author_association;
  std::string head_repository;
  std::string base_repository;
};

// A `workflow_run` event: the run it follows, whose artifacts a privileged job reads and posts.
// GitHub leaves its `pull_requests` empty when that run came from a fork, so the pull request is
// found from the head (publish/pull_request_lookup.hpp).
struct WorkflowRunHead {
  std::string event;       // the followed run's event: "pull_request", "push", ...
  std::string head_sha;    // the commit it ran on
  std::string head_label;  // "owner:branch", as GitHub's pulls API names a head
};

Result<WorkflowRunHead> parse_workflow_run_event(std::string_view json, std::string_view source);

// `event_name` is $GITHUB_EVENT_NAME; `source` names the file in errors.
Result<GithubEventCommits> parse_github_event(std::string_view json, std::string_view event_name,
                                              std::string_view source);

}  // namespace kforecast::git
