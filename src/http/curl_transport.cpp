// SPDX-License-Identifier: Apache-2.0
#include "http/curl_transport.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <array>
#include <functional>
#include <mutex>
#include <vector>

#include <fmt/format.h>

namespace kforecast::http {
namespace {

struct Exchange {
  HttpResponse response;
  std::size_t limit = 0;
  bool too_large = false;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  const std::size_t bytes = size * count;
  if (exchange->response.body.size() + bytes > exchange->limit) {
    exchange->too_large = true;
    return 0;  // aborts the transfer
  }
  exchange->response.body.append(data, bytes);
  return bytes;
}

std::string trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' || text.back() == '\n'))
    text.remove_suffix(1);
  return std::string(text);
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* exchange = static_cast<Exchange*>(user);
  const std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) exchange->response.headers.clear();  // a new response (after 100 Continue)
  const auto colon = line.find(':');
  if (colon != std::string_view::npos) {
    std::string name(line.substr(0, colon));
    std::ranges::transform(name, name.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    exchange->response.headers.emplace_back(std::move(name), trim(line.substr(colon + 1)));
  }
  return size * count;
}

std::string_view proxy_for(const ProxySettings& proxies, std::string_view url) {
  const std::string& own = url.starts_with("https:") ? proxies.https_proxy : proxies.http_proxy;
  return own.empty() ? proxies.all_proxy : own;
}

// DNS answers and TLS sessions shared by every request of one transport (libcurl does not
// support sharing the connection cache between concurrent threads; the handle pool below reuses
// connections instead). libcurl calls the lock functions around each use of a shared part.
class SharedState {
 public:
  SharedState() : m_share(curl_share_init()) {
    if (m_share == nullptr) return;
    curl_share_setopt(m_share, CURLSHOPT_LOCKFUNC, lock);
    curl_share_setopt(m_share, CURLSHOPT_UNLOCKFUNC, unlock);
    curl_share_setopt(m_share, CURLSHOPT_USERDATA, this);
    for (auto data : {CURL_LOCK_DATA_DNS, CURL_LOCK_DATA_SSL_SESSION})
      curl_share_setopt(m_share, CURLSHOPT_SHARE, data);
  }
  ~SharedState() {
    if (m_share != nullptr) curl_share_cleanup(m_share);
  }
  SharedState(const SharedState&) = delete;
  SharedState& operator=(const SharedState&) = delete;
  CURLSH* get() const { return m_share; }

 private:
  static void lock(CURL*, curl_lock_data data, curl_lock_access, void* user) {
    static_cast<SharedState*>(user)->m_mutexes[static_cast<std::size_t>(data) % mutex_count].lock();
  }
  static void unlock(CURL*, curl_lock_data data, void* user) {
    static_cast<SharedState*>(user)->m_mutexes[static_cast<std::size_t>(data) % mutex_count].unlock();
  }
  static constexpr std::size_t mutex_count = 8;
  CURLSH* m_share;
  std::array<std::mutex, mutex_count> m_mutexes;
};

// Easy handles kept between requests: a handle that is reset keeps its live connections, so a
// run's requests to one endpoint reuse them instead of connecting (and handshaking) each time.
// Each handle serves one request at a time.
class HandlePool {
 public:
  HandlePool() = default;
  HandlePool(const HandlePool&) = delete;
  HandlePool& operator=(const HandlePool&) = delete;
  ~HandlePool() {
    for (CURL* handle : m_idle) curl_easy_cleanup(handle);
  }
  CURL* take() {
    {
      std::lock_guard lock(m_mutex);
      if (!m_idle.empty()) {
        CURL* handle = m_idle.back();
        m_idle.pop_back();
        return handle;
      }
    }
    return curl_easy_init();
  }
  // Reset first: the options point at the finished request's buffers (headers, error text).
  void give_back(CURL* handle) {
    curl_easy_reset(handle);
    std::lock_guard lock(m_mutex);
    m_idle.push_back(handle);
  }

 private:
  std::mutex m_mutex;
  std::vector<CURL*> m_idle;
};

class CurlTransport final : public HttpTransport {
 public:
  explicit CurlTransport(CurlSettings settings) : m_settings(std::move(settings)) {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    m_shared = std::make_unique<SharedState>();
    m_pool = std::make_unique<HandlePool>();
  }

  HttpResult send(const HttpRequest& request) const override {
    CURL* handle = m_pool->take();
    if (handle == nullptr)
      return std::unexpected(TransportError{TransportFailure::other, "libcurl could not start a request"});
    // Back to the pool on every path; a failed transfer's connection is closed by libcurl itself.
    const std::unique_ptr<CURL, std::function<void(CURL*)>> returned(handle, [this](CURL* h) { m_pool->give_back(h); });
    Exchange exchange;
    exchange.limit = m_settings.max_response_bytes;

    curl_slist* headers = nullptr;
    for (const auto& [name, value] : request.headers)
      headers = curl_slist_append(headers, fmt::format("{}: {}", name, value).c_str());
    headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip for large prompts
    std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> header_list(headers, curl_slist_free_all);
    char error_text[CURL_ERROR_SIZE] = {};

    curl_easy_setopt(handle, CURLOPT_URL, request.url.c_str());
    curl_easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    if (m_shared->get() != nullptr) curl_easy_setopt(handle, CURLOPT_SHARE, m_shared->get());
    curl_easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
    if (request.method == "POST" || request.method == "PATCH" || request.method == "PUT") {
      curl_easy_setopt(handle, CURLOPT_POST, 1L);
      curl_easy_setopt(handle, CURLOPT_POSTFIELDS, request.body.data());
      curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
      // A body-carrying method other than POST (the forges' comment updates) keeps POST's body handling.
      if (request.method != "POST") curl_easy_setopt(handle, CURLOPT_CUSTOMREQUEST, request.method.c_str());
    } else {
      curl_easy_setopt(handle, CURLOPT_HTTPGET, 1L);
    }
    curl_easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
    curl_easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, std::min(30000L, static_cast<long>(request.timeout.count())));
    // The stall detector: fewer than 1 byte/s for stall_limit seconds ends the request.
    curl_easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(handle, CURLOPT_LOW_SPEED_TIME, static_cast<long>(m_settings.stall_limit.count()));
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!m_settings.ca_bundle.empty()) curl_easy_setopt(handle, CURLOPT_CAINFO, m_settings.ca_bundle.c_str());
    // An empty proxy string stops libcurl from reading the environment itself.
    const std::string proxy(proxy_for(m_settings.proxies, request.url));
    curl_easy_setopt(handle, CURLOPT_PROXY, proxy.c_str());
    if (!m_settings.proxies.no_proxy.empty())
      curl_easy_setopt(handle, CURLOPT_NOPROXY, m_settings.proxies.no_proxy.c_str());
    curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(handle, CURLOPT_WRITEDATA, &exchange);
    curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(handle, CURLOPT_HEADERDATA, &exchange);
    curl_easy_setopt(handle, CURLOPT_ERRORBUFFER, error_text);

    const auto started = std::chrono::steady_clock::now();
    const CURLcode code = curl_easy_perform(handle);
    const auto elapsed = std::chrono::steady_clock::now() - started;
    if (code != CURLE_OK) {
      const std::string detail = error_text[0] != '\0' ? error_text : curl_easy_strerror(code);
      if (exchange.too_large)
        return std::unexpected(
            TransportError{TransportFailure::other,
                           fmt::format("the response is larger than {} bytes", m_settings.max_response_bytes)});
      switch (code) {
        case CURLE_COULDNT_CONNECT:
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY:
        case CURLE_SSL_CONNECT_ERROR:
          return std::unexpected(TransportError{TransportFailure::connect, detail});
        case CURLE_PEER_FAILED_VERIFICATION:
        case CURLE_SSL_CACERT_BADFILE:
          return std::unexpected(TransportError{
              TransportFailure::connect,
              fmt::format("{} (TLS verification failed; name the server's CA with endpoint.ca_bundle)", detail)});
        case CURLE_OPERATION_TIMEDOUT:
          // The low-speed limit and the overall timeout share one code; the clock tells them apart.
          return std::unexpected(TransportError{elapsed + std::chrono::milliseconds(200) < request.timeout
                                                    ? TransportFailure::stalled
                                                    : TransportFailure::timeout,
                                                detail});
        case CURLE_PARTIAL_FILE:
        case CURLE_RECV_ERROR:
        case CURLE_SEND_ERROR:
        case CURLE_GOT_NOTHING:
          return std::unexpected(TransportError{TransportFailure::interrupted, detail});
        default:
          return std::unexpected(TransportError{TransportFailure::other, detail});
      }
    }
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &exchange.response.status);
    return std::move(exchange.response);
  }

 private:
  CurlSettings m_settings;
  // The pool's handles use the shared state, so the pool is destroyed first (declared last).
  std::unique_ptr<SharedState> m_shared;
  std::unique_ptr<HandlePool> m_pool;
};

std::string first_set(const EnvLookup& env, std::initializer_list<std::string_view> names) {
  for (auto name : names)
    if (auto value = env(name); value && !value->empty()) return *value;
  return "";
}

}  // namespace

ProxySettings proxy_settings_from(const EnvLookup& env) {
  return {first_set(env, {"http_proxy"}), first_set(env, {"https_proxy", "HTTPS_PROXY"}),
          first_set(env, {"all_proxy", "ALL_PROXY"}), first_set(env, {"no_proxy", "NO_PROXY"})};
}

std::unique_ptr<HttpTransport> make_curl_transport(CurlSettings settings) {
  return std::make_unique<CurlTransport>(std::move(settings));
}

}  // namespace kforecast::http
