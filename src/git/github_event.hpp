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
  std::string description;  // "pull request #12", "merge queue", "push"
};

// `event_name` is $GITHUB_EVENT_NAME; `source` names the file in errors.
Result<GithubEventCommits> parse_github_event(std::string_view json, std::string_view event_name,
                                              std::string_view source);

}  // namespace kforecast::git
