// SPDX-License-Identifier: Apache-2.0
#include "cli/command_progress.hpp"

namespace kforecast::cli {
namespace {

enum class ProgressAsk { yes, no, unsaid };

ProgressAsk progress_asked(const Invocation& invocation, const Context& context) {
  if (invocation.has("--progress")) return ProgressAsk::yes;
  const auto asked = context.env("KFORECAST_PROGRESS");
  if (!asked || asked->empty()) return ProgressAsk::unsaid;
  return *asked == "0" ? ProgressAsk::no : ProgressAsk::yes;
}

ProgressStyle progress_style(const Invocation& invocation, const Context& context) {
  if (context.err_is_terminal) return ProgressStyle::live;
  return progress_asked(invocation, context) == ProgressAsk::no ? ProgressStyle::silent : ProgressStyle::log;
}

}  // namespace

CommandProgress::CommandProgress(const Invocation& invocation, Context& context)
    : m_context(context), m_progress(context.err, progress_style(invocation, context)) {
  context.progress = &m_progress;
  if (context.err_is_terminal) return;
  const ProgressAsk asked = progress_asked(invocation, context);
  if (asked == ProgressAsk::no) return;
  if (asked == ProgressAsk::unsaid) {
    m_progress.log_delay = 30;
    m_progress.log_interval = 30;
  }
  m_progress.start_heartbeat();
}

CommandProgress::~CommandProgress() { m_context.progress = nullptr; }

}  // namespace kforecast::cli
