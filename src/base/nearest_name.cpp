// SPDX-License-Identifier: Apache-2.0
#include "base/nearest_name.hpp"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace kforecast {

std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t rows = a.size() + 1, cols = b.size() + 1;
  std::vector<std::size_t> d(rows * cols);
  auto at = [&](std::size_t i, std::size_t j) -> std::size_t& { return d[i * cols + j]; };
  for (std::size_t i = 0; i < rows; ++i) at(i, 0) = i;
  for (std::size_t j = 0; j < cols; ++j) at(0, j) = j;
  for (std::size_t i = 1; i < rows; ++i) {
    for (std::size_t j = 1; j < cols; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      at(i, j) = std::min({at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        at(i, j) = std::min(at(i, j), at(i - 2, j - 2) + 1);
    }
  }
  return at(rows - 1, cols - 1);
}

std::optional<std::string> nearest_name(std::string_view typed, std::span<const std::string_view> candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (std::string_view candidate : candidates) {
    const std::size_t distance = edit_distance(typed, candidate);
    const std::size_t allowed = std::max<std::size_t>(1, std::max(typed.size(), candidate.size()) / 3);
    const bool is_prefix = typed.size() >= 2 && candidate.starts_with(typed);
    if (distance > allowed && !is_prefix) continue;
    const std::size_t score = is_prefix ? 0 : distance;
    if (!best || score < best_distance) {
      best = std::string(candidate);
      best_distance = score;
    }
  }
  return best;
}

std::string did_you_mean(std::string_view typed, std::span<const std::string_view> candidates) {
  if (auto nearest = nearest_name(typed, candidates)) return fmt::format(" (did you mean '{}'?)", *nearest);
  return {};
}

}  // namespace kforecast
