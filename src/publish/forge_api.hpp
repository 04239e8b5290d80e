// SPDX-License-Identifier: Apache-2.0
#pragma once

// Requests to a forge's REST API (GitHub, GitLab) with its authentication headers, retries on
// rate limits, 5xx and dropped connections, and errors a user can act on. The token is only ever
// put into a header; messages quote the API's own error text, cleaned of control characters.

#include <initializer_list>
#include <string>
#include <string_view>

#include "publish/sticky_comment.hpp"

namespace kforecast::publish {

class ForgeApi {
 public:
  ForgeApi(const http::HttpTransport& transport, const Forge& forge, const PostOptions& options)
      : m_transport(transport), m_forge(forge), m_options(options) {}

  // `url` is absolute and must lie under the forge's API URL (pagination links are checked, so
  // the token never goes to another host). `what` names the step in errors: "listing comments".
  // A 2xx response is returned, and so is one whose status is in `expected` (a refusal the
  // caller reads as an answer, like GitHub's /user refused to the Actions token) unless it is a
  // rate limit; anything else, after retries, is an error (a refusal where 401, 403 or 404).
  PostOutcome<http::HttpResponse> call(std::string_view method, const std::string& url, const std::string& body,
                                      std::string_view what, std::initializer_list<long> expected = {}) const;

  const Forge& forge() const { return m_forge; }

 private:
  std::vector<std::pair<std::string, std::string>> headers(bool has_body) const;

  const http::HttpTransport& m_transport;
  const Forge& m_forge;
  const PostOptions& m_options;
};

// The forge's fields, checked before any request: a project name that cannot leave its place in
// the URL, a token, and (PullRequestNumber::required) a pull request number. A problem is a usage error.
enum class PullRequestNumber { required, not_yet };
PostOutcome<void> check_forge(const Forge& forge, PullRequestNumber number);

// A failure to post: exit 3, and `refused_status` where the forge refused the token.
std::unexpected<PostError> post_failure(std::string message, long refused_status = 0);

// The API's error text from a response body ({"message": ...} or {"error": ...}), at most 300
// characters, control characters replaced; empty when the body has none.
std::string api_error_text(std::string_view body);

}  // namespace kforecast::publish
