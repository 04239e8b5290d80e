// SPDX-License-Identifier: Apache-2.0
#include "http/retry_delay.hpp"

#include <ctime>

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace kforecast::http {
namespace {

std::optional<double> plain_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == nullptr || *end != '\0' || !std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::chrono::milliseconds> server_retry_delay(const HttpResponse& response,
                                                            std::chrono::system_clock::time_point now) {
  using std::chrono::milliseconds;
  constexpr double ceiling_ms = 24.0 * 3600 * 1000;  // anything longer is treated as a day; callers cap it
  if (auto ms = response.header("retry-after-ms"))
    if (auto value = plain_number(*ms)) return milliseconds(static_cast<std::int64_t>(std::min(*value, ceiling_ms)));
  auto after = response.header("retry-after");
  if (!after) return std::nullopt;
  if (auto seconds = plain_number(*after))
    return milliseconds(static_cast<std::int64_t>(std::min(*seconds * 1000, ceiling_ms)));
  std::tm date{};
  // IMF-fixdate, the form HTTP/1.1 requires: "Sun, 06 Nov 1994 08:49:37 GMT".
  const char* end = strptime(after->c_str(), "%a, %d %b %Y %H:%M:%S GMT", &date);
  if (end == nullptr || *end != '\0') return std::nullopt;
  const auto when = std::chrono::system_clock::from_time_t(timegm(&date));
  if (when <= now) return milliseconds(0);
  return std::min(std::chrono::duration_cast<milliseconds>(when - now),
                  milliseconds(static_cast<std::int64_t>(ceiling_ms)));
}

std::chrono::milliseconds backoff_delay(const BackoffPolicy& policy, int attempt, std::mt19937_64& random) {
  const double ceiling = std::min(static_cast<double>(policy.cap.count()),
                                  static_cast<double>(policy.base.count()) * std::ldexp(1.0, std::min(attempt, 30)));
  std::uniform_real_distribution<double> uniform(ceiling / 2, ceiling);
  return std::chrono::milliseconds(static_cast<std::int64_t>(uniform(random)));
}

}  // namespace kforecast::http
