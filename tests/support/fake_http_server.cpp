// SPDX-License-Identifier: Apache-2.0
#include "support/fake_http_server.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

namespace kforecast::testing {
namespace {

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
  return std::string(text);
}

bool send_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t sent = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(sent));
  }
  return true;
}

std::string_view reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 404:
      return "Not Found";
    case 408:
      return "Request Timeout";
    case 429:
      return "Too Many Requests";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

// Reads one request: headers up to the blank line, then Content-Length bytes of body (or a
// chunked body). Returns nullopt when the peer closes early.
std::optional<RecordedRequest> read_request(int fd) {
  std::string data;
  char buffer[65536];
  std::size_t header_end = std::string::npos;
  while ((header_end = data.find("\r\n\r\n")) == std::string::npos) {
    const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
    if (got <= 0) return std::nullopt;
    data.append(buffer, static_cast<std::size_t>(got));
  }
  RecordedRequest request;
  std::string_view head(data.data(), header_end);
  const auto line_end = head.find("\r\n");
  const std::string_view request_line = head.substr(0, line_end);
  const auto space1 = request_line.find(' '), space2 = request_line.rfind(' ');
  if (space1 == std::string_view::npos || space2 == space1) return std::nullopt;
  request.method = request_line.substr(0, space1);
  request.target = request_line.substr(space1 + 1, space2 - space1 - 1);
  std::size_t content_length = 0;
  bool chunked = false;
  for (std::size_t at = line_end == std::string_view::npos ? head.size() : line_end + 2; at < head.size();) {
    std::size_t next = head.find("\r\n", at);
    if (next == std::string_view::npos) next = head.size();
    const std::string_view line = head.substr(at, next - at);
    const auto colon = line.find(':');
    if (colon != std::string_view::npos) {
      std::string name = lower(std::string(line.substr(0, colon)));
      std::string value = trim(line.substr(colon + 1));
      if (name == "content-length") content_length = std::stoul(value);
      if (name == "transfer-encoding" && lower(value).find("chunked") != std::string::npos) chunked = true;
      if (name == "expect") send_all(fd, "HTTP/1.1 100 Continue\r\n\r\n");
      request.headers.emplace_back(std::move(name), std::move(value));
    }
    at = next + 2;
  }
  std::string body = data.substr(header_end + 4);
  if (!chunked) {
    while (body.size() < content_length) {
      const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
      if (got <= 0) return std::nullopt;
      body.append(buffer, static_cast<std::size_t>(got));
    }
    request.body = body.substr(0, content_length);
    return request;
  }
  // Chunked: sizes in hex, each chunk followed by CRLF, a zero chunk at the end.
  std::string decoded;
  for (;;) {
    std::size_t size_end;
    while ((size_end = body.find("\r\n")) == std::string::npos) {
      const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
      if (got <= 0) return std::nullopt;
      body.append(buffer, static_cast<std::size_t>(got));
    }
    const std::size_t size = std::stoul(body.substr(0, size_end), nullptr, 16);
    while (body.size() < size_end + 2 + size + 2) {
      const ssize_t got = ::recv(fd, buffer, sizeof buffer, 0);
      if (got <= 0) return std::nullopt;
      body.append(buffer, static_cast<std::size_t>(got));
    }
    if (size == 0) break;
    decoded += body.substr(size_end + 2, size);
    body.erase(0, size_end + 2 + size + 2);
  }
  request.body = std::move(decoded);
  return request;
}

}  // namespace

std::optional<std::string> RecordedRequest::header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (key == name) return value;
  return std::nullopt;
}

FakeHttpServer::FakeHttpServer() {
  m_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (m_listener < 0) throw std::runtime_error("fake server: socket() failed");
  const int yes = 1;
  ::setsockopt(m_listener, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;
  if (::bind(m_listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(m_listener, 128) != 0)
    throw std::runtime_error("fake server: cannot listen on 127.0.0.1");
  socklen_t length = sizeof address;
  ::getsockname(m_listener, reinterpret_cast<sockaddr*>(&address), &length);
  m_port = ntohs(address.sin_port);
  if (::pipe2(m_wake, O_CLOEXEC) != 0) throw std::runtime_error("fake server: pipe() failed");
  m_acceptor = std::thread([this] { accept_loop(); });
}

FakeHttpServer::~FakeHttpServer() {
  {
    std::lock_guard lock(m_mutex);
    m_stopping = true;
  }
  m_stopping_cv.notify_all();
  (void)!::write(m_wake[1], "x", 1);
  m_acceptor.join();
  std::vector<std::thread> connections;
  {
    std::lock_guard lock(m_mutex);
    connections.swap(m_connections);
  }
  for (auto& thread : connections) thread.join();
  ::close(m_listener);
  ::close(m_wake[0]);
  ::close(m_wake[1]);
}

std::string FakeHttpServer::base_url() const { return fmt::format("http://127.0.0.1:{}", m_port); }

void FakeHttpServer::enqueue(ScriptedResponse response) {
  std::lock_guard lock(m_mutex);
  m_script.push_back(std::move(response));
}

void FakeHttpServer::set_handler(Handler handler) {
  std::lock_guard lock(m_mutex);
  m_handler = std::move(handler);
}

std::vector<RecordedRequest> FakeHttpServer::requests() const {
  std::lock_guard lock(m_mutex);
  return m_requests;
}

std::size_t FakeHttpServer::request_count() const {
  std::lock_guard lock(m_mutex);
  return m_requests.size();
}

std::size_t FakeHttpServer::peak_concurrency() const {
  std::lock_guard lock(m_mutex);
  return m_peak;
}

void FakeHttpServer::accept_loop() {
  for (;;) {
    pollfd fds[2] = {{m_listener, POLLIN, 0}, {m_wake[0], POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0 && errno != EINTR) return;
    if (fds[1].revents != 0) return;
    if ((fds[0].revents & POLLIN) == 0) continue;
    const int connection = ::accept4(m_listener, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection < 0) continue;
    std::lock_guard lock(m_mutex);
    m_connections.emplace_back([this, connection] { serve(connection); });
  }
}

bool FakeHttpServer::wait_or_stop(std::chrono::milliseconds duration) {
  std::unique_lock lock(m_mutex);
  return !m_stopping_cv.wait_for(lock, duration, [this] { return m_stopping; });
}

ScriptedResponse FakeHttpServer::next_response(const RecordedRequest& request, std::size_t index) {
  Handler handler;
  {
    std::lock_guard lock(m_mutex);
    if (!m_script.empty()) {
      ScriptedResponse response = std::move(m_script.front());
      m_script.pop_front();
      return response;
    }
    handler = m_handler;
  }
  if (handler) return handler(request, index);
  return ScriptedResponse::json(
      500, R"({"error":{"message":"fake server: the test scripted no response for this request"}})");
}

void FakeHttpServer::serve(int connection) {
  auto request = read_request(connection);
  if (!request) {
    ::close(connection);
    return;
  }
  std::size_t index = 0;
  {
    std::lock_guard lock(m_mutex);
    index = m_requests.size();
    m_requests.push_back(*request);
    m_peak = std::max(m_peak, ++m_active);
  }
  const ScriptedResponse response = next_response(*request, index);
  const bool alive = response.delay.count() == 0 || wait_or_stop(response.delay);
  if (alive && response.action != ScriptedResponse::Action::drop) {
    std::string head = fmt::format("HTTP/1.1 {} {}\r\n", response.status, reason(response.status));
    for (const auto& [name, value] : response.headers) head += fmt::format("{}: {}\r\n", name, value);
    head += fmt::format("Content-Length: {}\r\nConnection: close\r\n\r\n", response.body.size());
    using Action = ScriptedResponse::Action;
    const std::size_t sent_body = response.action == Action::respond
                                      ? response.body.size()
                                      : std::min(response.truncate_at, response.body.size());
    if (send_all(connection, head) && send_all(connection, std::string_view(response.body).substr(0, sent_body)) &&
        response.action == Action::stall)
      wait_or_stop(response.stall_for);
  }
  {
    std::lock_guard lock(m_mutex);
    --m_active;
  }
  ::shutdown(connection, SHUT_RDWR);
  ::close(connection);
}

}  // namespace kforecast::testing
