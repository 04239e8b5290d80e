// SPDX-License-Identifier: Apache-2.0
#include "support/fake_forge.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_string.hpp"

namespace kforecast::testing {
namespace {

constexpr std::size_t page_size = 2;

std::string query_value(const std::string& query, std::string_view name) {
  const std::string key = fmt::format("{}=", name);
  for (std::size_t start = 0; start < query.size();) {
    const std::size_t end = std::min(query.find('&', start), query.size());
    const std::string_view part = std::string_view(query).substr(start, end - start);
    if (part.starts_with(key)) return std::string(part.substr(key.size()));
    start = end + 1;
  }
  return "";
}

// %XX escapes decoded, as a server reads a query value.
std::string percent_decoded(std::string_view text) {
  std::string decoded;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size()) {
      decoded += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      decoded += text[i];
    }
  }
  return decoded;
}

ScriptedResponse error(int status, std::string_view message) {
  return ScriptedResponse::json(status, fmt::format("{{\"message\": {}}}", kforecast::json_string(message)));
}

}  // namespace

FakeForge::FakeForge(Kind kind, std::string token, std::string identity, std::string project, std::string number)
    : m_kind(kind),
      m_token(std::move(token)),
      m_identity(std::move(identity)),
      m_project(std::move(project)),
      m_number(std::move(number)) {
  m_server.set_handler([this](const RecordedRequest& request, std::size_t) { return handle(request); });
}

std::string FakeForge::api_url() const {
  return m_kind == Kind::github ? m_server.base_url() : m_server.base_url() + "/api/v4";
}

void FakeForge::add_comment(std::string author, std::string body, bool system) {
  std::lock_guard lock(m_mutex);
  m_comments.push_back({m_next_id++, std::move(author), std::move(body), system});
}

std::vector<FakeComment> FakeForge::comments() const {
  std::lock_guard lock(m_mutex);
  return m_comments;
}

void FakeForge::queue_failure(ScriptedResponse response) {
  std::lock_guard lock(m_mutex);
  m_failures.push_back(std::move(response));
}

void FakeForge::add_read_only_token(std::string token) {
  std::lock_guard lock(m_mutex);
  m_read_only_token = std::move(token);
}

void FakeForge::set_pull_request_head(std::string label, std::string sha) {
  std::lock_guard lock(m_mutex);
  m_head_label = std::move(label);
  m_head_sha = std::move(sha);
}

bool FakeForge::read_only(const RecordedRequest& request) const {
  return !m_read_only_token.empty() && m_kind == Kind::github &&
         request.header("authorization") == "Bearer " + m_read_only_token;
}

bool FakeForge::authorised(const RecordedRequest& request) const {
  if (m_kind == Kind::github)
    return (request.header("authorization") == "Bearer " + m_token || read_only(request)) &&
           request.header("accept") == "application/vnd.github+json" && request.header("user-agent").has_value();
  return request.header("private-token") == m_token || request.header("job-token") == m_token;
}

ScriptedResponse FakeForge::pulls(const std::string& query) const {
  const std::string head = percent_decoded(query_value(query, "head"));
  if (m_head_label.empty() || head != m_head_label || query_value(query, "state") != "open")
    return ScriptedResponse::json(200, "[]");
  return ScriptedResponse::json(200,
                                fmt::format("[{{\"number\": {}, \"head\": {{\"label\": {}, \"sha\": {}}}}}]", m_number,
                                            kforecast::json_string(m_head_label), kforecast::json_string(m_head_sha)));
}

ScriptedResponse FakeForge::list(const std::string& query) {
  const std::string page_text = query_value(query, "page");
  const std::size_t page = page_text.empty() ? 1 : std::stoul(page_text);
  const std::size_t first = (page - 1) * page_size;
  std::string items;
  for (std::size_t i = first; i < std::min(first + page_size, m_comments.size()); ++i) {
    const auto& c = m_comments[i];
    const std::string author = m_kind == Kind::github
                                   ? fmt::format("\"user\": {{\"login\": {}}}", kforecast::json_string(c.author))
                                   : fmt::format("\"author\": {{\"username\": {}}}, \"system\": {}",
                                                 kforecast::json_string(c.author), c.system ? "true" : "false");
    items += fmt::format("{}{{\"id\": {}, \"body\": {}, {}, \"html_url\": \"https://forge.example/c/{}\"}}",
                         items.empty() ? "" : ", ", c.id, kforecast::json_string(c.body), author, c.id);
  }
  ScriptedResponse response = ScriptedResponse::json(200, "[" + items + "]");
  const bool more = first + page_size < m_comments.size();
  if (m_kind == Kind::github) {
    const std::string next = !m_foreign_next.empty()
                                 ? m_foreign_next
                                 : fmt::format("{}/repos/{}/issues/{}/comments?per_page=100&page={}", api_url(),
                                               m_project, m_number, page + 1);
    if (more || !m_foreign_next.empty())
      response.headers.emplace_back("Link", fmt::format("<{}>; rel=\"next\", <{}>; rel=\"last\"", next, next));
  } else {
    response.headers.emplace_back("x-next-page", more ? std::to_string(page + 1) : "");
  }
  return response;
}

ScriptedResponse FakeForge::handle(const RecordedRequest& request) {
  std::lock_guard lock(m_mutex);
  if (!m_failures.empty()) {
    auto failure = std::move(m_failures.front());
    m_failures.pop_front();
    return failure;
  }
  if (!authorised(request)) return error(401, "Bad credentials");
  const std::string prefix = m_kind == Kind::github ? "" : "/api/v4";
  const std::string target = request.target;
  const std::string path = target.substr(0, target.find('?'));
  const std::string query = target.find('?') == std::string::npos ? "" : target.substr(target.find('?') + 1);

  if (read_only(request) && request.method != "GET") return error(403, "Resource not accessible by integration");
  if (path == prefix + "/user") {
    if (m_identity.empty() || read_only(request)) return error(403, "Resource not accessible by integration");
    return ScriptedResponse::json(200, fmt::format("{{\"{}\": {}}}", m_kind == Kind::github ? "login" : "username",
                                                   kforecast::json_string(m_identity)));
  }
  const std::string collection = m_kind == Kind::github
                                     ? fmt::format("/repos/{}/issues/{}/comments", m_project, m_number)
                                     : fmt::format("/api/v4/projects/{}/merge_requests/{}/notes", m_project, m_number);
  const std::string item_prefix =
      m_kind == Kind::github ? fmt::format("/repos/{}/issues/comments/", m_project) : collection + "/";
  auto body_of = [&]() -> std::optional<std::string> {
    if (request.header("content-type") != "application/json") return std::nullopt;
    const auto parsed = nlohmann::json::parse(request.body, nullptr, false);
    if (!parsed.is_object() || !parsed.contains("body") || !parsed["body"].is_string()) return std::nullopt;
    return parsed["body"].get<std::string>();
  };
  const std::string author = m_identity.empty() ? "github-actions[bot]" : m_identity;
  if (path == collection && request.method == "GET") return list(query);
  if (m_kind == Kind::github && path == fmt::format("/repos/{}/pulls", m_project) && request.method == "GET")
    return pulls(query);
  if (path == collection && request.method == "POST") {
    const auto body = body_of();
    if (!body) return error(422, "Invalid request: body is missing");
    if (body->size() > 65536) return error(422, "Body is too long (maximum is 65536 characters)");
    m_comments.push_back({m_next_id++, author, *body});
    return ScriptedResponse::json(201, fmt::format("{{\"id\": {}, \"html_url\": \"https://forge.example/c/{}\"}}",
                                                   m_comments.back().id, m_comments.back().id));
  }
  const std::string update_method = m_kind == Kind::github ? "PATCH" : "PUT";
  if (path.starts_with(item_prefix) && request.method == update_method) {
    const std::string id = path.substr(item_prefix.size());
    for (auto& comment : m_comments)
      if (std::to_string(comment.id) == id) {
        if (comment.author != author) return error(403, "You cannot edit another user's comment");
        const auto body = body_of();
        if (!body) return error(422, "Invalid request: body is missing");
        comment.body = *body;
        return ScriptedResponse::json(
            200, fmt::format("{{\"id\": {}, \"html_url\": \"https://forge.example/c/{}\"}}", comment.id, comment.id));
      }
    return error(404, "Not Found");
  }
  return error(404, "Not Found");
}

}  // namespace kforecast::testing
