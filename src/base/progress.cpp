// SPDX-License-Identifier: Apache-2.0
#include "base/progress.hpp"

#include <ostream>

#include <fmt/format.h>

namespace kforecast {

Progress::Progress(std::ostream& out, ProgressStyle style, Clock clock)
    : m_out(out), m_style(style), m_clock(std::move(clock)), m_start(m_clock()) {}

Progress::~Progress() { finish(); }

void Progress::stage(std::string_view name, std::size_t total, std::string_view items) {
  const std::lock_guard lock(m_mutex);
  m_stage = name;
  m_detail.clear();
  m_items = items;
  m_total = total;
  m_done = 0;
  show(true);
}

void Progress::advance(std::size_t done) {
  const std::lock_guard lock(m_mutex);
  m_done = done;
  show(false);
}

void Progress::detail(std::string_view text) {
  const std::lock_guard lock(m_mutex);
  m_detail = text;
  show(false);
}

void Progress::clear_line() {
  const std::lock_guard lock(m_mutex);
  if (m_live_shown) m_out << "\r\x1b[K" << std::flush;
  m_live_shown = false;
}

void Progress::add_gpu_seconds(double seconds) {
  const std::lock_guard lock(m_mutex);
  m_gpu_seconds += seconds;
  show(false);
}

void Progress::finish() {
  if (m_heartbeat.joinable()) {
    m_heartbeat.request_stop();
    m_wake.notify_all();
    m_heartbeat.join();
  }
  const std::lock_guard lock(m_mutex);
  if (m_live_shown) m_out << "\r\x1b[K" << std::flush;
  m_live_shown = false;
}

void Progress::tick() {
  const std::lock_guard lock(m_mutex);
  if (m_style == ProgressStyle::log && !m_stage.empty()) show(false);
}

void Progress::start_heartbeat(std::chrono::milliseconds period) {
  if (m_style != ProgressStyle::log || m_heartbeat.joinable()) return;
  m_heartbeat = std::jthread([this, period](const std::stop_token& stop) {
    std::mutex idle;
    std::unique_lock lock(idle);
    while (!m_wake.wait_for(lock, stop, period, [] { return false; })) {
      if (stop.stop_requested()) return;
      tick();
    }
  });
}

std::string Progress::line() const {
  std::string text = fmt::format("kforecast: {}", m_stage);
  if (m_total > 0) text += fmt::format(" {}/{} {}", m_done, m_total, m_items);
  if (m_gpu_seconds > 0) text += fmt::format(", GPU {:.1f} s", m_gpu_seconds);
  text += fmt::format(" ({:.0f} s)", m_clock() - m_start);
  return m_detail.empty() ? text : text + ": " + m_detail;
}

void Progress::show(bool stage_changed) {
  if (m_style == ProgressStyle::silent) return;
  const double now = m_clock();
  if (m_style == ProgressStyle::live) {
    if (now - m_start < delay || (!stage_changed && now - m_last_shown < live_interval)) return;
    m_out << "\r\x1b[K" << line() << std::flush;
    m_live_shown = true;
  } else {
    if (now - m_start < log_delay || (!stage_changed && now - m_last_shown < log_interval)) return;
    m_out << line() << "\n" << std::flush;
  }
  m_last_shown = now;
}

}  // namespace kforecast
