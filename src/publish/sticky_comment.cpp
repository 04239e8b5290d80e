// SPDX-License-Identifier: Apache-2.0
#include "publish/sticky_comment.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"
#include "base/json_string.hpp"
#include "publish/forge_api.hpp"

namespace kforecast::publish {
namespace {

using Kind = Forge::Kind;

// Far above any real pull request; a bound so a misbehaving API cannot page us forever.
constexpr int max_pages = 200;

struct Comment {
  std::string id, body, author, url;
};

std::string comments_url(const Forge& forge) {
  return forge.kind == Kind::github
             ? fmt::format("{}/repos/{}/issues/{}/comments", forge.api_url, forge.project, forge.number)
             : fmt::format("{}/projects/{}/merge_requests/{}/notes", forge.api_url, forge.project, forge.number);
}

std::string comment_url(const Forge& forge, std::string_view id) {
  return forge.kind == Kind::github
             ? fmt::format("{}/repos/{}/issues/comments/{}", forge.api_url, forge.project, id)
             : fmt::format("{}/projects/{}/merge_requests/{}/notes/{}", forge.api_url, forge.project, forge.number, id);
}

std::string text_at(const Json& element, std::string_view pointer) {
  const Json* value = json_document::at_pointer(element, pointer);
  return value != nullptr && value->is_string() ? value->get<std::string>() : std::string();
}

std::string id_of(const Json& element) {
  if (const auto number = json_document::int64_at(element, "id")) return std::to_string(*number);
  return "";
}

PostOutcome<std::vector<Comment>> parse_comments(std::string_view body, Kind kind) {
  const auto items = json_document::parse(body);
  if (!items || !items->is_array()) return post_failure("listing comments: the API's answer is not a JSON array");
  std::vector<Comment> comments;
  for (const Json& item : *items) {
    if (kind == Kind::gitlab && json_document::bool_at(item, "system").value_or(false))
      continue;  // "added 1 commit" and the like
    Comment comment{id_of(item), text_at(item, "/body"),
                    text_at(item, kind == Kind::github ? "/user/login" : "/author/username"),
                    text_at(item, "/html_url")};
    if (!comment.id.empty()) comments.push_back(std::move(comment));
  }
  return comments;
}

// The next page's URL: GitHub's Link header rel="next"; GitLab's x-next-page header.
std::optional<std::string> next_page(const http::HttpResponse& response, Kind kind, const std::string& first_page) {
  if (kind == Kind::gitlab) {
    const auto page = response.header("x-next-page");
    if (!page || page->empty() || page->find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    return fmt::format("{}&page={}", first_page, *page);
  }
  const auto link = response.header("link");
  if (!link) return std::nullopt;
  for (std::size_t start = 0; start < link->size();) {
    const std::size_t end = std::min(link->find(',', start), link->size());
    const std::string_view part = std::string_view(*link).substr(start, end - start);
    const auto open = part.find('<'), close = part.find('>');
    if (open != std::string_view::npos && close != std::string_view::npos && close > open &&
        part.find("rel=\"next\"") != std::string_view::npos)
      return std::string(part.substr(open + 1, close - open - 1));
    start = end + 1;
  }
  return std::nullopt;
}

// Whose comments are ours: the token's own login. GitHub refuses /user to the Actions token,
// whose comments are by github-actions[bot]; GitLab refuses it to a job token, and then the
// marker alone must do (nullopt).
PostOutcome<std::optional<std::string>> own_identity(const ForgeApi& api) {
  const Forge& forge = api.forge();
  auto response = api.call("GET", forge.api_url + "/user", "", "finding the token's user", {401, 403});
  if (!response) return std::unexpected(response.error());
  if (response->status == 403 && forge.kind == Kind::github) return std::optional<std::string>("github-actions[bot]");
  if (response->status != 200 && forge.kind == Kind::gitlab && forge.gitlab_job_token)
    return std::optional<std::string>();
  if (response->status == 401)
    return post_failure(fmt::format("finding the token's user: HTTP 401: the token was rejected: check {}",
                                    forge.kind == Kind::github ? "GITHUB_TOKEN" : "GITLAB_TOKEN"),
                        401);
  if (response->status != 200)
    return post_failure(fmt::format("finding the token's user: HTTP {}", response->status), response->status);
  const auto root = json_document::parse(response->body);
  if (!root) return post_failure("finding the token's user: the API's answer is not JSON");
  std::string login = text_at(*root, forge.kind == Kind::github ? "/login" : "/username");
  if (login.empty()) return post_failure("finding the token's user: the answer names no user");
  return std::optional<std::string>(std::move(login));
}

PostOutcome<std::optional<Comment>> find_report_comment(const ForgeApi& api,
                                                        const std::optional<std::string>& identity) {
  const Forge& forge = api.forge();
  const std::string first = comments_url(forge) + "?per_page=100";
  std::optional<std::string> url = first;
  for (int page = 0; url && page < max_pages; ++page) {
    auto response = api.call("GET", *url, "", "listing comments");
    if (!response) return std::unexpected(response.error());
    auto comments = parse_comments(response->body, forge.kind);
    if (!comments) return std::unexpected(comments.error());
    for (auto& comment : *comments)
      if (comment.body.starts_with(report_marker) && (!identity || comment.author == *identity))
        return std::optional<Comment>(std::move(comment));
    url = next_page(*response, forge.kind, first);
  }
  return std::optional<Comment>();
}

}  // namespace

PostOutcome<PostResult> post_sticky_comment(const http::HttpTransport& transport, const Forge& forge,
                                            std::string_view body, const PostOptions& options) {
  if (auto checked = check_forge(forge, PullRequestNumber::required); !checked) return std::unexpected(checked.error());
  const ForgeApi api(transport, forge, options);
  auto identity = own_identity(api);
  if (!identity) return std::unexpected(identity.error());
  auto existing = find_report_comment(api, *identity);
  if (!existing) return std::unexpected(existing.error());

  const std::string payload = fmt::format("{{\"body\": {}}}", json_string(fmt::format("{}\n{}", report_marker, body)));
  PostResult result;
  PostOutcome<http::HttpResponse> response =
      *existing ? api.call(forge.kind == Kind::github ? "PATCH" : "PUT", comment_url(forge, (*existing)->id), payload,
                           "updating the report comment")
                : api.call("POST", comments_url(forge), payload, "creating the report comment");
  if (!response) return std::unexpected(response.error());
  result.action = *existing ? PostResult::Action::updated : PostResult::Action::created;
  if (const auto root = json_document::parse(response->body)) {
    result.comment_id = id_of(*root);
    result.url = text_at(*root, "/html_url");
  }
  if (result.comment_id.empty() && *existing) result.comment_id = (*existing)->id;
  return result;
}

}  // namespace kforecast::publish
