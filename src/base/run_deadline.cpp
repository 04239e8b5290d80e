// SPDX-License-Identifier: Apache-2.0
#include "base/run_deadline.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace kforecast {

RunDeadline::RunDeadline(Clock::time_point start, std::chrono::seconds budget, std::function<Clock::time_point()> now)
    : m_deadline(start + budget), m_budget(budget), m_now(std::move(now)) {}

bool RunDeadline::passed() const { return m_budget.count() > 0 && m_now() >= m_deadline; }

std::chrono::milliseconds RunDeadline::left(std::chrono::milliseconds cap) const {
  if (m_budget.count() == 0) return cap;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(m_deadline - m_now());
  return std::clamp(left, std::chrono::milliseconds(0), cap);
}

std::string RunDeadline::reason() const {
  return fmt::format("the run's wall budget of {} s (run.budget_seconds) was spent", m_budget.count());
}

}  // namespace kforecast
