// SPDX-License-Identifier: Apache-2.0
#include "http/retry_delay.hpp"

#include <catch2/catch.hpp>

using namespace kforecast::http;
using namespace std::chrono_literals;

namespace {

HttpResponse with(std::vector<std::pair<std::string, std::string>> headers) { return {429, std::move(headers), ""}; }

}  // namespace

TEST_CASE("http: the server's retry delay: retry-after-ms first, then Retry-After seconds or date") {
  const auto now = std::chrono::system_clock::from_time_t(784111777);  // Sun, 06 Nov 1994 08:49:37 GMT
  CHECK(server_retry_delay(with({{"retry-after-ms", "250"}, {"retry-after", "7"}}), now) == 250ms);
  CHECK(server_retry_delay(with({{"retry-after", "7"}}), now) == 7000ms);
  CHECK(server_retry_delay(with({{"retry-after", "1.5"}}), now) == 1500ms);
  CHECK(server_retry_delay(with({{"retry-after", "Sun, 06 Nov 1994 08:49:47 GMT"}}), now) == 10000ms);
  CHECK(server_retry_delay(with({{"retry-after", "Sun, 06 Nov 1994 08:49:00 GMT"}}), now) == 0ms);
  CHECK_FALSE(server_retry_delay(with({{"retry-after", "soon"}}), now));
  CHECK_FALSE(server_retry_delay(with({{"retry-after", "-3"}}), now));
  CHECK_FALSE(server_retry_delay(with({}), now));
  CHECK(server_retry_delay(with({{"retry-after", "1e30"}}), now) == 86400000ms);
}

TEST_CASE("http: backoff grows exponentially, jittered, capped") {
  std::mt19937_64 random(7);
  const BackoffPolicy policy{100ms, 1000ms, 60000ms};
  for (int i = 0; i < 50; ++i) {
    auto first = backoff_delay(policy, 0, random);
    CHECK((first >= 50ms && first <= 100ms));
    auto third = backoff_delay(policy, 2, random);
    CHECK((third >= 200ms && third <= 400ms));
    auto late = backoff_delay(policy, 40, random);
    CHECK((late >= 500ms && late <= 1000ms));
  }
  std::mt19937_64 a(1), b(1);
  CHECK(backoff_delay(policy, 3, a) == backoff_delay(policy, 3, b));
}
