// SPDX-License-Identifier: Apache-2.0
#include "git/change_author.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "base/text_file.hpp"
#include "git/github_event.hpp"

namespace kforecast::git {
namespace {

bool is_set(const EnvLookup& env, std::string_view name) {
  const auto value = env(name);
  return value && !value->empty();
}

// GitHub's associations of people who can push to the repository.
constexpr std::array<std::string_view, 3> write_access{"OWNER", "MEMBER", "COLLABORATOR"};

ChangeAuthor github_author(const EnvLookup& env) {
  const auto path = *env("GITHUB_EVENT_PATH");
  auto text = read_text_file(path, "GitHub event file");
  if (!text) return {AuthorTrust::untrusted, "assumed: the GitHub event file could not be read"};
  const std::string event_name = env("GITHUB_EVENT_NAME").value_or("");
  auto event = parse_github_event(*text, event_name, path);
  if (!event)
    return {AuthorTrust::untrusted,
            fmt::format("assumed: the GitHub event `{}` says nothing of the author", event_name)};
  const bool pull_request = event_name.starts_with("pull_request");
  if (!pull_request)
    return {AuthorTrust::trusted, fmt::format("a GitHub {}: made by someone who can push", event->description)};
  if (event->author_association.empty())
    return {AuthorTrust::untrusted, "assumed: the event has no author_association"};
  if (event->head_repository.empty() || event->head_repository != event->base_repository)
    return {AuthorTrust::untrusted,
            fmt::format("a fork ({})",
                        event->head_repository.empty() ? "head repository unknown" : event->head_repository)};
  if (std::ranges::find(write_access, event->author_association) == write_access.end())
    return {AuthorTrust::untrusted, fmt::format("author_association {}: no write access", event->author_association)};
  return {AuthorTrust::trusted, fmt::format("author_association {}", event->author_association)};
}

}  // namespace

ChangeAuthor change_author(const EnvLookup& env) {
  if (env("GITHUB_ACTIONS") == "true" && is_set(env, "GITHUB_EVENT_PATH")) return github_author(env);
  if (is_set(env, "CI_MERGE_REQUEST_IID") && is_set(env, "CI_MERGE_REQUEST_SOURCE_PROJECT_ID")) {
    if (env("CI_MERGE_REQUEST_SOURCE_PROJECT_ID") != env("CI_MERGE_REQUEST_PROJECT_ID"))
      return {AuthorTrust::untrusted, "a GitLab merge request from a fork"};
    return {AuthorTrust::trusted, "a GitLab merge request from a branch of the project: its author can push there"};
  }
  // CI=false (or 0) is how some shells and tools say "not CI" explicitly.
  const auto ci = env("CI");
  if ((ci && !ci->empty() && *ci != "false" && *ci != "0") || is_set(env, "GITHUB_ACTIONS") || is_set(env, "GITLAB_CI"))
    return {AuthorTrust::untrusted, "assumed: CI gives no author information"};
  return {AuthorTrust::trusted, "assumed: a local run, outside CI, reviewed by the user who runs it"};
}

std::string describe(const ChangeAuthor& author) {
  return fmt::format("{} ({})", author.trust == AuthorTrust::trusted ? "trusted" : "untrusted", author.reason);
}

}  // namespace kforecast::git
