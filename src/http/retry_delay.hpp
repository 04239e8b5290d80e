// SPDX-License-Identifier: Apache-2.0
#pragma once

// How long to wait before retrying: the server's word first (`retry-after-ms`, then
// `Retry-After` as seconds or an HTTP date), capped; otherwise exponential backoff with jitter
// ("equal jitter": half fixed, half random), so many clients that failed together do not retry
// together, and none retries at once.

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>

#include "http/http_transport.hpp"

namespace kforecast::http {

struct BackoffPolicy {
  std::chrono::milliseconds base{500};          // the first retry waits up to this
  std::chrono::milliseconds cap{30000};         // no computed wait exceeds this
  std::chrono::milliseconds server_cap{60000};  // nor a server's Retry-After
};

// The server-requested wait, if the response names one. `now` is for HTTP dates.
std::optional<std::chrono::milliseconds> server_retry_delay(const HttpResponse& response,
                                                            std::chrono::system_clock::time_point now);

// Uniform in [c/2, c] with c = min(cap, base * 2^attempt); attempt counts from 0.
std::chrono::milliseconds backoff_delay(const BackoffPolicy& policy, int attempt, std::mt19937_64& random);

}  // namespace kforecast::http
