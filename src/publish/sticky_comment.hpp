// SPDX-License-Identifier: Apache-2.0
#pragma once

// One report comment per pull request, updated in place on every run, on
// GitHub or GitLab. The comment is found by a hidden marker at its top *and* by its author being
// the token's own identity, so a user who quotes the report, or another bot's comment, is never
// overwritten. Listing is paginated; a missing comment is created. Tokens go into request
// headers only: they never reach an error message, a log or a report.

#include <chrono>
#include <functional>
#include <string>

#include "base/error.hpp"
#include "http/http_transport.hpp"

namespace kforecast::publish {

// The first line of every report comment; HTML comments do not render.
inline constexpr std::string_view report_marker = "<!-- kforecast:report -->";

struct Forge {
  enum class Kind { github, gitlab };
  Kind kind = Kind::github;
  std::string api_url;  // "https://api.github.com", "https://gitlab.example/api/v4"
  std::string project;  // GitHub "owner/repo"; GitLab the project id or its url-encoded path
  std::string number;   // the pull request's number, the merge request's iid
  std::string token;    // never printed
  // GitLab's CI_JOB_TOKEN goes in a JOB-TOKEN header, a personal or project token in PRIVATE-TOKEN.
  bool gitlab_job_token = false;
};

struct PostOptions {
  int max_retries = 3;                                   // on rate limits and 5xx
  std::chrono::milliseconds max_wait{120000};            // the longest a rate limit may make us wait, each time
  std::function<void(std::chrono::milliseconds)> sleep;  // tests pass a recorder
};

struct PostResult {
  enum class Action { created, updated };
  Action action = Action::created;
  std::string comment_id;
  std::string url;  // the comment's html_url / the note's web address where the API gives one
};

// Why posting failed. `refused_status` is the forge's answer where it refused the token: 401 (not
// accepted), 403 (may not write: the read-only token of a pull request from a fork) or 404 (cannot
// see the pull request); 0 for every other failure (a bad request, rate limits, server errors,
// answers that make no sense, no connection), which a caller must not treat as a refusal.
struct PostError : Error {
  long refused_status = 0;
};

template <class T>
using PostOutcome = std::expected<T, PostError>;

// Creates or updates the report comment. `body` is the Markdown; the marker is added.
PostOutcome<PostResult> post_sticky_comment(const http::HttpTransport& transport, const Forge& forge,
                                            std::string_view body, const PostOptions& options = {});

}  // namespace kforecast::publish
