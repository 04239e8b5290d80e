// SPDX-License-Identifier: Apache-2.0
#pragma once

// The run's wall budget (run.budget_seconds): one deadline, counted from the command's start, for
// every step that can take long (compiles, the forecasters' compiler facts, measurements). A step
// checks it before each piece of work; past it, what is left is unverified with reason(), and the
// report is written on time. The clock is a seam for tests.

#include <chrono>
#include <functional>
#include <string>

namespace kforecast {

class RunDeadline {
 public:
  using Clock = std::chrono::steady_clock;

  // No budget: never passes.
  RunDeadline() = default;
  // `budget` from `start`; a budget of 0 is none.
  RunDeadline(Clock::time_point start, std::chrono::seconds budget,
              std::function<Clock::time_point()> now = Clock::now);

  bool passed() const;
  // Time left, at most `cap`; `cap` itself where there is no budget.
  std::chrono::milliseconds left(std::chrono::milliseconds cap) const;
  // "the run's wall budget of 300 s (run.budget_seconds) was spent"
  std::string reason() const;
  std::chrono::seconds budget() const { return m_budget; }

 private:
  Clock::time_point m_deadline{};
  std::chrono::seconds m_budget{0};
  std::function<Clock::time_point()> m_now = Clock::now;
};

}  // namespace kforecast
