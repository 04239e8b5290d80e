// SPDX-License-Identifier: Apache-2.0
#pragma once

// A long command's progress (base/progress.hpp), lent to the context for the command's length.
// On a terminal a live line. In a CI log plain lines: from the start with --progress or
// KFORECAST_PROGRESS=1; none with KFORECAST_PROGRESS=0; otherwise only once a run has taken 30 s,
// and then every 30 s even while one step runs long, so that a long run never leaves a log quiet
// and a short one prints nothing.

#include "base/progress.hpp"
#include "cli/command.hpp"

namespace kforecast::cli {

class CommandProgress {
 public:
  CommandProgress(const Invocation& invocation, Context& context);
  ~CommandProgress();
  CommandProgress(const CommandProgress&) = delete;
  CommandProgress& operator=(const CommandProgress&) = delete;

  Progress& operator*() { return m_progress; }
  Progress* operator->() { return &m_progress; }

 private:
  Context& m_context;
  Progress m_progress;
};

}  // namespace kforecast::cli
