// SPDX-License-Identifier: Apache-2.0
#pragma once

// HTTP as a seam: the LLM endpoint client and the forge API (publish) talk to an HttpTransport;
// the real one is libcurl (curl_transport.hpp), tests drive the same clients over real HTTP
// against a loopback server.
// Implementations must be safe to call from several threads at once.

#include <chrono>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kforecast::http {

struct HttpRequest {
  std::string method = "POST";  // or "GET", "PATCH", "PUT"
  std::string url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds timeout{120000};  // the whole exchange
};

struct HttpResponse {
  long status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  // names lower-cased, values trimmed
  std::string body;

  std::optional<std::string> header(std::string_view lower_case_name) const;
};

enum class TransportFailure {
  connect,      // refused, unreachable, DNS, TLS handshake
  timeout,      // the request's time limit passed
  stalled,      // no bytes for the stall limit
  interrupted,  // the connection closed mid-response, or a truncated body
  other,
};

struct TransportError {
  TransportFailure kind = TransportFailure::other;
  std::string message;  // never contains request headers
};

using HttpResult = std::expected<HttpResponse, TransportError>;

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  virtual HttpResult send(const HttpRequest& request) const = 0;
};

std::string_view to_string(TransportFailure kind);

}  // namespace kforecast::http
