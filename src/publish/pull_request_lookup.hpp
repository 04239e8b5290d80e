// SPDX-License-Identifier: Apache-2.0
#pragma once

// The pull request a `workflow_run` run posts to. GitHub's workflow_run event names no pull
// request when the run it follows came from a fork, so the pull request is looked up from that
// run's head, which GitHub wrote into the event (never from the run's artifacts, which the fork
// controls): the open pull request of the project whose head is that branch at that commit.

#include <string>
#include <string_view>

#include "publish/sticky_comment.hpp"

namespace kforecast::publish {

// The number of the open pull request of `forge.project` (GitHub) whose head is `head_label`
// ("owner:branch") at `head_sha`. None is a usage error naming both; `forge.number` is not read.
PostOutcome<std::string> find_pull_request(const http::HttpTransport& transport, const Forge& forge,
                                           std::string_view head_label, std::string_view head_sha,
                                           const PostOptions& options = {});

}  // namespace kforecast::publish
