// SPDX-License-Identifier: Apache-2.0
#include "git/github_event.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"

namespace kforecast::git {
namespace {

constexpr std::string_view all_zero_sha = "0000000000000000000000000000000000000000";

bool is_commit_id(std::string_view text) {
  return (text.size() == 40 || text.size() == 64) &&
         std::ranges::all_of(text, [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

// Reads the string at `field` ("pull_request.base.sha") and checks it is a commit id.
Result<std::string> commit_at(const Json& root, std::string_view field, std::string_view source) {
  std::string pointer = fmt::format("/{}", field);
  std::ranges::replace(pointer, '.', '/');
  const Json* value = json_document::at_pointer(root, pointer);
  if (value == nullptr) return usage_error(fmt::format("{}: the event has no `{}`", source, field));
  if (!value->is_string()) return usage_error(fmt::format("{}: `{}` is not a string", source, field));
  const auto& text = value->get_ref<const std::string&>();
  if (!is_commit_id(text))
    return usage_error(fmt::format("{}: `{}` is not a commit id (40 or 64 lowercase hex digits)", source, field));
  return text;
}

Result<GithubEventCommits> commits_at(const Json& root, std::string_view base_field, std::string_view head_field,
                                      std::string_view source) {
  auto base = commit_at(root, base_field, source);
  if (!base) return std::unexpected(base.error());
  auto head = commit_at(root, head_field, source);
  if (!head) return std::unexpected(head.error());
  return GithubEventCommits{.base = std::move(*base), .head = std::move(*head)};
}

Result<std::string> text_at(const Json& root, std::string_view field, std::string_view source) {
  std::string pointer = fmt::format("/{}", field);
  std::ranges::replace(pointer, '.', '/');
  const Json* value = json_document::at_pointer(root, pointer);
  if (value == nullptr || !value->is_string() || value->get_ref<const std::string&>().empty())
    return usage_error(fmt::format("{}: the event has no `{}`", source, field));
  return value->get<std::string>();
}

}  // namespace

Result<WorkflowRunHead> parse_workflow_run_event(std::string_view json, std::string_view source) {
  const auto document = json_document::parse(json);
  if (!document) return usage_error(fmt::format("{}: not a GitHub event file: {}", source, document.error()));
  const Json& root = *document;
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
  const auto document = json_document::parse(json);
  if (!document) return usage_error(fmt::format("{}: not a GitHub event file: {}", source, document.error()));
  const Json& root = *document;
  if (!root.is_object()) return usage_error(fmt::format("{}: not a GitHub event file: not a JSON object", source));

  if (event_name == "pull_request" || event_name == "pull_request_target" || event_name == "pull_request_review") {
    auto commits = commits_at(root, "pull_request.base.sha", "pull_request.head.sha", source);
    if (!commits) return commits;
    const Json* number_value = json_document::at_pointer(root, "/pull_request/number");
    const std::int64_t number = number_value ? json_document::as_int64(*number_value).value_or(0) : 0;
    const bool numbered = number > 0;
    commits->description = numbered ? fmt::format("pull request #{}", number) : "pull request";
    if (numbered) commits->pull_request_number = std::to_string(number);
    // Optional: an event without them leaves the author unknown, which the caller treats as
    // untrusted (git/change_author.hpp).
    const auto optional_text = [&](const char* pointer) {
      const Json* value = json_document::at_pointer(root, pointer);
      return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
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
