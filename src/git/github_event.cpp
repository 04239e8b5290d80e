// SPDX-License-Identifier: Apache-2.0
#include "git/github_event.hpp"

#include <fmt/format.h>

#include <simdjson.h>
#include <algorithm>

namespace kforecast::git {
namespace {

constexpr std::string_view all_zero_sha = "0000000000000000000000000000000000000000";

bool is_commit_id(std::string_view text) {
  return (text.size() == 40 || text.size() == 64) &&
         std::ranges::all_of(text, [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Reads the string at `field` ("pull_request.base.sha") and checks it is a commit id.
Result<std::string> commit_at(const simdjson::dom::element& root, std::string_view field, std::string_view source) {
  std::string pointer = fmt::format("/{}", field);
  std::ranges::replace(pointer, '.', '/');
  std::string_view text;
  const auto error = root.at_pointer(pointer).get_string().get(text);
  if (error == simdjson::NO_SUCH_FIELD || error == simdjson::INVALID_JSON_POINTER)
    return usage_error(fmt::format("{}: the event has no `{}`", source, field));
  if (error) return usage_error(fmt::format("{}: `{}` is not a string", source, field));
  if (!is_commit_id(text))
    return usage_error(fmt::format("{}: `{}` is not a commit id (40 or 64 lowercase hex digits)", source, field));
  return std::string(text);
}

Result<GithubEventCommits> commits_at(const simdjson::dom::element& root, std::string_view base_field,
                                      std::string_view head_field, std::string_view source) {
  auto base = commit_at(root, base_field, source);
  if (!base) return std::unexpected(base.error());
  auto head = commit_at(root, head_field, source);
  if (!head) return std::unexpected(head.error());
  return GithubEventCommits{.base = std::move(*base), .head = std::move(*head)};
}

Result<std::string> text_at(const simdjson::dom::element& root, std::string_view field, std::string_view source) {
  std::string pointer = fmt::format("/{}", field);
  std::ranges::replace(pointer, '.', '/');
  std::string_view text;
  if (root.at_pointer(pointer).get_string().get(text) || text.empty())
    return usage_error(fmt::format("{}: the event has no `{}`", source, field));
  return std::string(text);
}

}  // namespace

Result<WorkflowRunHead> parse_workflow_run_event(std::string_view json, std::string_view source) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (const auto error = parser.parse(json.data(), json.size()).get(root))
    return usage_error(fmt::format("{}: not a GitHub event file: {}", source, simdjson::error_message(error)));
  auto event = text_at(root, "workflow_run.event", source);
  if (!event) return std::unexpected(event.error());
  auto sha = commit_at(root, "workflow_run.head_sha", source);
  if (!sha) return std::unexpected(sha.error());
  auto owner = text_at(root, "workflow_run.head_repository.owner.login", source);
  if (!owner) return std::unexpected(owner.error());
  auto branch = text_at(root, "workflow_run.head_branch", source);
  if (!branch) return std::unexpected(branch.error());
  return WorkflowRunHead{std::move(*event), std::move(*sha), fmt::format("{}:{}", *owner, *branch)};
}

Result<GithubEventCommits> parse_github_event(std::string_view json, std::string_view event_name,
                                              std::string_view source) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (const auto error = parser.parse(json.data(), json.size()).get(root))
    return usage_error(fmt::format("{}: not a GitHub event file: {}", source, simdjson::error_message(error)));
  if (!root.is_object()) return usage_error(fmt::format("{}: not a GitHub event file: not a JSON object", source));

  if (event_name == "pull_request" || event_name == "pull_request_target" || event_name == "pull_request_review") {
    auto commits = commits_at(root, "pull_request.base.sha", "pull_request.head.sha", source);
    if (!commits) return commits;
    int64_t number = 0;
    const bool numbered =
        root.at_pointer("/pull_request/number").get_int64().get(number) == simdjson::SUCCESS && number > 0;
    commits->description = numbered ? fmt::format("pull request #{}", number) : "pull request";
    if (numbered) commits->pull_request_number = std::to_string(number);
    // Optional: an event without them leaves the author unknown, which the caller treats as
    // untrusted (git/change_author.hpp).
    const auto optional_text = [&](const char* pointer) {
      std::string_view text;
      return root.at_pointer(pointer).get_string().get(text) ? std::string() : std::string(text);
    };
    commits->author_association = optional_text("/pull_request/author_association");
    commits->head_repository = optional_text("/pull_request/head/repo/full_name");
    commits->base_repository = optional_text("/pull_request/base/repo/full_name");
    return commits;
  }
  if (event_name == "merge_group") {
    auto commits = commits_at(root, "merge_group.base_sha", "merge_group.head_sha", source);
    if (commits) commits->description = "merge queue";
    return commits;
  }
  if (event_name == "push") {
    auto commits = commits_at(root, "before", "after", source);
    if (!commits) return commits;
    if (commits->base == all_zero_sha)
      return usage_error(fmt::format(
          "{}: this push created the branch, so it has no previous commit to compare with: pass --base REV", source));
    commits->compare_with_merge_base = false;
    commits->description = "push";
    return commits;
  }
  return usage_error(
      fmt::format("GitHub event `{}` names no base commit: run kforecast on pull_request, merge_group or push events, "
                  "or pass --base REV",
                  event_name));
}

}  // namespace kforecast::git
