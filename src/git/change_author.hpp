// SPDX-License-Identifier: Apache-2.0
#pragma once

// Whether the author of the change under review may be trusted with an LLM forecast alone:
// kernel source from a fork or from an author without write access is untrusted
// input that can address the model, so its kernels need the embedded forecaster's trust or a
// measurement. Read from where the change comes from:
// - GitHub Actions, pull request events: `author_association` OWNER, MEMBER or COLLABORATOR and
//   the head in the base's own repository is trusted; a fork, any other association, or an event
//   that does not say is not. Other events (push, merge queue) come from someone who can push.
// - GitLab merge requests: from a branch of the project itself (its author can push there) is
//   trusted, from a fork (CI_MERGE_REQUEST_SOURCE_PROJECT_ID differs) is not; GitLab's variables
//   say nothing of the author's role.
// - Any other CI ($CI set): nothing says who wrote the change, so untrusted: the safe default.
// - Outside CI: the user running kforecast reviews their own work tree, so trusted.
// The reason always says which it was, for the report.

#include <string>

#include "base/environment.hpp"

namespace kforecast::git {

enum class AuthorTrust { trusted, untrusted };

struct ChangeAuthor {
  AuthorTrust trust = AuthorTrust::untrusted;
  std::string reason;  // "author_association MEMBER", "assumed: CI gives no author information ..."
};

ChangeAuthor change_author(const EnvLookup& env);

// "trusted (reason)" / "untrusted (reason)", as the report's run note words it.
std::string describe(const ChangeAuthor& author);

}  // namespace kforecast::git
