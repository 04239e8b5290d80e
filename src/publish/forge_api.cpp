// SPDX-License-Identifier: Apache-2.0
#include "publish/forge_api.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <thread>

#include "base/json_document.hpp"
#include "base/redaction.hpp"
#include "kforecast_version.hpp"

namespace kforecast::publish {
namespace {

using namespace std::chrono_literals;

std::optional<long long> header_number(const http::HttpResponse& response, std::string_view name) {
  const auto text = response.header(name);
  if (!text) return std::nullopt;
  long long value = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size()) return std::nullopt;
  return value;
}

// GitHub answers a rate limit with 429, or 403 and either `x-ratelimit-remaining: 0` (the
// primary limit) or a "secondary rate limit" message; GitLab with 429.
bool is_rate_limited(const http::HttpResponse& response) {
  if (response.status == 429) return true;
  if (response.status != 403) return false;
  return header_number(response, "x-ratelimit-remaining") == 0 || response.body.find("rate limit") != std::string::npos;
}

// How long a rate limit asks us to wait: retry-after seconds; else until x-ratelimit-reset
// (epoch seconds); else GitHub's advice for secondary limits, one minute.
std::chrono::milliseconds rate_limit_wait(const http::HttpResponse& response) {
  if (const auto seconds = header_number(response, "retry-after"); seconds && *seconds >= 0)
    return std::chrono::seconds(*seconds);
  if (const auto reset = header_number(response, "x-ratelimit-reset")) {
    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    return std::chrono::seconds(std::max<long long>(0, *reset - now + 1));
  }
  return 60s;
}

std::string status_advice(long status, Forge::Kind kind) {
  const bool github = kind == Forge::Kind::github;
  switch (status) {
    case 401:
      return github ? "the token was rejected: check GITHUB_TOKEN" : "the token was rejected: check GITLAB_TOKEN";
    case 403:
      return github ? "the token may not write comments: give the workflow `permissions: pull-requests: write` "
                      "(pull requests from forks get a read-only token; post from a workflow_run job instead)"
                    : "the token may not write notes: use a project access token with the api scope in GITLAB_TOKEN";
    case 404:
      return github ? "the repository or pull request was not found, or the token cannot see it"
                    : "the project or merge request was not found, or the token cannot see it";
    case 422:
      return "the API refused the content";
    default:
      return "";
  }
}

bool valid_number(std::string_view text) {
  return !text.empty() && text.size() < 20 && text.find_first_not_of("0123456789") == std::string_view::npos;
}

bool valid_project(const Forge& forge) {
  if (forge.project.empty()) return false;
  const std::string_view allowed = forge.kind == Forge::Kind::github
                                       ? "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/"
                                       : "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-%";
  return forge.project.find_first_not_of(allowed) == std::string::npos && forge.project.find("..") == std::string::npos;
}

std::unexpected<PostError> usage_failure(std::string message) {
  return std::unexpected(PostError{{std::move(message), ExitCode::usage}, 0});
}

}  // namespace

PostOutcome<void> check_forge(const Forge& forge, PullRequestNumber number) {
  if (number == PullRequestNumber::required && !valid_number(forge.number))
    return usage_failure(fmt::format("--post: '{}' is not a pull request number", forge.number));
  if (!valid_project(forge)) return usage_failure(fmt::format("--post: '{}' is not a project name", forge.project));
  if (forge.token.empty())
    return usage_failure(forge.kind == Forge::Kind::github
                             ? "--post needs GITHUB_TOKEN in the environment"
                             : "--post needs GITLAB_TOKEN (or CI_JOB_TOKEN) in the environment");
  return {};
}

std::unexpected<PostError> post_failure(std::string message, long refused_status) {
  return std::unexpected(PostError{{std::move(message), ExitCode::could_not_run}, refused_status});
}

std::string api_error_text(std::string_view body) {
  const auto root = json_document::parse(body);
  if (!root) return "";
  const std::string* found = json_document::string_at(*root, "message");
  if (found == nullptr) found = json_document::string_at(*root, "error");
  if (found == nullptr) return "";
  const std::string_view text = *found;
  std::string clean;
  for (char c : text.substr(0, 300)) clean += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? ' ' : c;
  return clean;
}

std::vector<std::pair<std::string, std::string>> ForgeApi::headers(bool has_body) const {
  std::vector<std::pair<std::string, std::string>> headers{
      {"User-Agent", fmt::format("kforecast/{}", kforecast::version)}};
  if (m_forge.kind == Forge::Kind::github) {
    headers.emplace_back("Accept", "application/vnd.github+json");
    headers.emplace_back("X-GitHub-Api-Version", "2022-11-28");
    headers.emplace_back("Authorization", "Bearer " + m_forge.token);
  } else {
    headers.emplace_back(m_forge.gitlab_job_token ? "JOB-TOKEN" : "PRIVATE-TOKEN", m_forge.token);
  }
  if (has_body) headers.emplace_back("Content-Type", "application/json");
  return headers;
}

PostOutcome<http::HttpResponse> ForgeApi::call(std::string_view method, const std::string& url, const std::string& body,
                                              std::string_view what, std::initializer_list<long> expected) const {
  if (!url.starts_with(m_forge.api_url + "/"))
    return post_failure(fmt::format("{}: the API pointed to {}, outside {}; not following it with the token", what,
                                    url.substr(0, url.find('?')), m_forge.api_url));
  auto sleep = m_options.sleep ? m_options.sleep : [](std::chrono::milliseconds d) { std::this_thread::sleep_for(d); };
  std::string last_problem;
  for (int attempt = 0; attempt <= m_options.max_retries; ++attempt) {
    // A comment is the one place a secret would be public for good: the body is redacted here,
    // whatever built it.
    http::HttpRequest request{std::string(method), url, headers(!body.empty()), redact_secrets(body),
                             std::chrono::seconds(60)};
    const auto response = m_transport.send(request);
    std::chrono::milliseconds wait = std::chrono::seconds(1) * (1 << attempt);
    if (!response) {
      last_problem = fmt::format("no answer from {}: {}", m_forge.api_url, response.error().message);
    } else {
      if (response->status >= 200 && response->status < 300) return *response;
      const std::string api_text = api_error_text(response->body);
      const bool rate_limited = is_rate_limited(*response);
      if (!rate_limited && std::ranges::find(expected, response->status) != expected.end()) return *response;
      if (rate_limited) {
        wait = rate_limit_wait(*response);
        last_problem = fmt::format("rate limited ({}){}", response->status, api_text.empty() ? "" : ": " + api_text);
        if (wait > m_options.max_wait)
          return post_failure(fmt::format("{}: {}; the limit resets in {} s, longer than kforecast waits", what,
                                          last_problem,
                                          std::chrono::duration_cast<std::chrono::seconds>(wait).count()));
      } else if (response->status >= 500) {
        last_problem = fmt::format("server error {}{}", response->status, api_text.empty() ? "" : ": " + api_text);
      } else {
        const std::string advice = status_advice(response->status, m_forge.kind);
        const bool refused = response->status == 401 || response->status == 403 || response->status == 404;
        return post_failure(
            fmt::format("{}: HTTP {}{}{}", what, response->status, api_text.empty() ? "" : " (" + api_text + ")",
                        advice.empty() ? "" : ": " + advice),
            refused ? response->status : 0);
      }
    }
    if (attempt < m_options.max_retries) sleep(wait);
  }
  return post_failure(fmt::format("{}: {} (after {} retries)", what, last_problem, m_options.max_retries));
}

}  // namespace kforecast::publish
