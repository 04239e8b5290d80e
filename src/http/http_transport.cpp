// SPDX-License-Identifier: Apache-2.0
#include "http/http_transport.hpp"

namespace kforecast::http {

std::optional<std::string> HttpResponse::header(std::string_view lower_case_name) const {
  for (const auto& [name, value] : headers)
    if (name == lower_case_name) return value;
  return std::nullopt;
}

std::string_view to_string(TransportFailure kind) {
  switch (kind) {
    case TransportFailure::connect:
      return "connection failed";
    case TransportFailure::timeout:
      return "timed out";
    case TransportFailure::stalled:
      return "stalled";
    case TransportFailure::interrupted:
      return "connection interrupted";
    case TransportFailure::other:
      break;
  }
  return "transfer failed";
}

}  // namespace kforecast::http
