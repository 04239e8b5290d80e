// SPDX-License-Identifier: Apache-2.0
#pragma once

// A scriptable HTTP/1.1 server on 127.0.0.1 for tests: it accepts on a free port, answers each
// request with the next scripted response (or a handler's), and records what it was sent. It is
// generic on purpose (LLM endpoints today, a fake GitHub API tomorrow): responses can be delayed,
// stalled, cut short, or dropped, so a client's failure handling is tested over real sockets.
//
// Every response closes its connection (Connection: close), which keeps the server simple and
// makes each request a separate exchange a test can count. Connections are served concurrently,
// one thread each, so concurrency limits can be measured.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace kforecast::testing {

struct RecordedRequest {
  std::string method;
  std::string target;  // as sent: "/v1/chat/completions?x=1", or "http://host/..." through a proxy
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased
  std::string body;

  std::optional<std::string> header(std::string_view lower_case_name) const;
};

struct ScriptedResponse {
  enum class Action {
    respond,   // status line, headers, body
    drop,      // close the connection without a byte of response
    truncate,  // send headers with the full Content-Length, then only `truncate_at` body bytes, close
    stall,     // send headers and `truncate_at` body bytes, then nothing until `stall_for` passes
  };
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;  // Content-Length and Connection are added
  std::string body;
  std::chrono::milliseconds delay{0};  // before the first byte of the response
  Action action = Action::respond;
  std::size_t truncate_at = 0;
  std::chrono::milliseconds stall_for{60000};

  static ScriptedResponse json(int status, std::string body) {
    return {status, {{"Content-Type", "application/json"}}, std::move(body)};
  }
};

class FakeHttpServer {
 public:
  using Handler = std::function<ScriptedResponse(const RecordedRequest& request, std::size_t index)>;

  FakeHttpServer();
  ~FakeHttpServer();
  FakeHttpServer(const FakeHttpServer&) = delete;
  FakeHttpServer& operator=(const FakeHttpServer&) = delete;

  std::uint16_t port() const { return m_port; }
  std::string base_url() const;  // "http://127.0.0.1:PORT"

  // Responses are used in order, one per request; when the script runs out, the handler answers
  // (if set), else a 500 saying the script ran out.
  void enqueue(ScriptedResponse response);
  void set_handler(Handler handler);

  std::vector<RecordedRequest> requests() const;
  std::size_t request_count() const;
  // The most requests that were being served at the same moment.
  std::size_t peak_concurrency() const;

 private:
  void accept_loop();
  void serve(int connection);
  ScriptedResponse next_response(const RecordedRequest& request, std::size_t index);
  bool wait_or_stop(std::chrono::milliseconds duration);  // false when stopping

  int m_listener = -1;
  int m_wake[2] = {-1, -1};
  std::uint16_t m_port = 0;
  mutable std::mutex m_mutex;
  std::condition_variable m_stopping_cv;
  bool m_stopping = false;
  std::deque<ScriptedResponse> m_script;
  Handler m_handler;
  std::vector<RecordedRequest> m_requests;
  std::size_t m_active = 0, m_peak = 0;
  std::vector<std::thread> m_connections;
  std::thread m_acceptor;
};

}  // namespace kforecast::testing
