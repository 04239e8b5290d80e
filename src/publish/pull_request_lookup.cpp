// SPDX-License-Identifier: Apache-2.0
#include "publish/pull_request_lookup.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"
#include "publish/forge_api.hpp"

namespace kforecast::publish {
namespace {

// A query value: unreserved characters as they are, every other byte %XX.
std::string query_escaped(std::string_view text) {
  std::string escaped;
  for (unsigned char c : text) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
        c == '.' || c == '~')
      escaped += static_cast<char>(c);
    else
      escaped += fmt::format("%{:02X}", c);
  }
  return escaped;
}

}  // namespace

PostOutcome<std::string> find_pull_request(const http::HttpTransport& transport, const Forge& forge,
                                           std::string_view head_label, std::string_view head_sha,
                                           const PostOptions& options) {
  if (auto checked = check_forge(forge, PullRequestNumber::not_yet); !checked) return std::unexpected(checked.error());
  const ForgeApi api(transport, forge, options);
  // GitHub filters by head on the server; a head label matches at most one open pull request
  // per base repository, so one page is enough.
  auto response = api.call("GET",
                           fmt::format("{}/repos/{}/pulls?state=open&head={}&per_page=100", forge.api_url,
                                       forge.project, query_escaped(head_label)),
                           "", "finding the pull request");
  if (!response) return std::unexpected(response.error());
  const auto pulls = json_document::parse(response->body);
  if (!pulls || !pulls->is_array())
    return post_failure("finding the pull request: the API's answer is not a JSON array");
  for (const Json& pull : *pulls) {
    const Json* sha = json_document::at_pointer(pull, "/head/sha");
    const auto number = json_document::int64_at(pull, "number");
    if (sha != nullptr && sha->is_string() && sha->get_ref<const std::string&>() == head_sha && number && *number > 0)
      return std::to_string(*number);
  }
  return std::unexpected(PostError{
      {fmt::format("--post: no open pull request of {} has head {} at {}: the run this one follows is not of a pull "
                   "request's current head (pushed again since, or closed)",
                   forge.project, head_label, head_sha.substr(0, 12)),
       ExitCode::usage},
      0});
}

}  // namespace kforecast::publish
