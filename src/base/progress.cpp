// SPDX-License-Identifier: Apache-2.0
#include "base/progress.hpp"

#include <ostream>

#include <fmt/format.h>

namespace kforecast {

Progress::Progress(std::ostream& out, ProgressStyle style, Clock clock)
    : m_out(out), m_style(style), m_clock(std::move(clock)), m_start(m_clock()) {}

void Progress::stage(std::string_view name, std::size_t total, std::string_view items) {
  m_stage = name;
  m_items = items;
  m_total = total;
  m_done = 0;
  show(true);
}

void Progress::advance(std::size_t done) {
  m_done = done;
  show(false);
}

void Progress::add_gpu_seconds(double seconds) {
  m_gpu_seconds += seconds;
  show(false);
}

void Progress::finish() {
  if (m_live_shown) m_out << "\r\x1b[K" << std::flush;
  m_live_shown = false;
}

std::string Progress::line() const {
  std::string text = fmt::format("kforecast: {}", m_stage);
  if (m_total > 0) text += fmt::format(" {}/{} {}", m_done, m_total, m_items);
  if (m_gpu_seconds > 0) text += fmt::format(", GPU {:.1f} s", m_gpu_seconds);
  return text + fmt::format(" ({:.0f} s)", m_clock() - m_start);
}

void Progress::show(bool stage_changed) {
  if (m_style == ProgressStyle::silent) return;
  const double now = m_clock();
  if (m_style == ProgressStyle::live) {
    if (now - m_start < delay || (!stage_changed && now - m_last_shown < live_interval)) return;
    m_out << "\r\x1b[K" << line() << std::flush;
    m_live_shown = true;
  } else {
    if (!stage_changed && now - m_last_shown < log_interval) return;
    m_out << line() << "\n" << std::flush;
  }
  m_last_shown = now;
}

}  // namespace kforecast
