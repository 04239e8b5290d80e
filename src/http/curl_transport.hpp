// SPDX-License-Identifier: Apache-2.0
#pragma once

// The real HttpTransport: one libcurl easy handle per request (thread-safe without sharing).
// TLS peers are always verified; a CA bundle may be named. Proxies come from the standard
// variables, read through the EnvLookup seam rather than by libcurl behind our back.

#include <chrono>
#include <memory>
#include <string>

#include "base/environment.hpp"
#include "http/http_transport.hpp"

namespace kforecast::http {

struct ProxySettings {
  std::string http_proxy;   // for http:// URLs: http_proxy (lower case only, as curl: HTTP_PROXY is CGI-unsafe)
  std::string https_proxy;  // https_proxy or HTTPS_PROXY
  std::string all_proxy;    // all_proxy or ALL_PROXY, when the scheme's own is unset
  std::string no_proxy;     // no_proxy or NO_PROXY
};

ProxySettings proxy_settings_from(const EnvLookup& env);

struct CurlSettings {
  ProxySettings proxies;
  std::string ca_bundle;                 // a PEM file of trusted CAs, or "" for the system's
  std::chrono::seconds stall_limit{30};  // a response with no bytes for this long fails
  std::size_t max_response_bytes = std::size_t{16} * 1024 * 1024;
};

std::unique_ptr<HttpTransport> make_curl_transport(CurlSettings settings);

}  // namespace kforecast::http
