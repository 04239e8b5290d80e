// SPDX-License-Identifier: Apache-2.0
#pragma once

// Fake GitHub and GitLab comment APIs on the loopback HTTP server, with state: comments live in
// a list, listings are paginated (two per page, whatever per_page asks, so pagination is always
// exercised) the way each forge does it (GitHub: a Link header; GitLab: x-next-page), and every
// request's authentication is checked as the real API would. Tests can queue failures ahead of
// the normal answers.

#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "support/fake_http_server.hpp"

namespace kforecast::testing {

struct FakeComment {
  long long id = 0;
  std::string author;
  std::string body;
  bool system = false;  // GitLab system notes
};

class FakeForge {
 public:
  enum class Kind { github, gitlab };
  // `identity`: what /user answers; empty makes /user refuse (403), as GitHub does for the
  // Actions token. `project`/`number` are the only pull request that exists.
  FakeForge(Kind kind, std::string token, std::string identity, std::string project, std::string number);

  std::string api_url() const;  // GitHub: the server root; GitLab: ".../api/v4"
  FakeHttpServer& server() { return m_server; }

  void add_comment(std::string author, std::string body, bool system = false);
  std::vector<FakeComment> comments() const;
  // Answered before the normal logic, one per request.
  void queue_failure(ScriptedResponse response);
  // The pagination link the next listing carries points here instead (GitHub only).
  void set_foreign_next_link(std::string url) { m_foreign_next = std::move(url); }
  // A token that may read but not write, as GitHub hands a `pull_request` run from a fork:
  // listings answer, /user and creating or editing a comment answer 403.
  void add_read_only_token(std::string token);
  // The pull request's head ("owner:branch" and its commit), for GitHub's
  // `GET /repos/{project}/pulls?head=owner:branch`: a fork's `workflow_run` event names no pull
  // request, so the poster looks it up. Unset, that listing is empty.
  void set_pull_request_head(std::string label, std::string sha);

 private:
  ScriptedResponse handle(const RecordedRequest& request);
  ScriptedResponse list(const std::string& query);
  ScriptedResponse pulls(const std::string& query) const;
  bool authorised(const RecordedRequest& request) const;
  bool read_only(const RecordedRequest& request) const;

  Kind m_kind;
  std::string m_token, m_identity, m_project, m_number, m_foreign_next;
  std::string m_read_only_token, m_head_label, m_head_sha;
  mutable std::mutex m_mutex;
  std::vector<FakeComment> m_comments;
  std::deque<ScriptedResponse> m_failures;
  long long m_next_id = 1000;
  FakeHttpServer m_server;
};

}  // namespace kforecast::testing
