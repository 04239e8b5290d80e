// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a long run shows while it works: its stage, the items of the stage done out of how many,
// GPU time spent so far, and time elapsed. Code reports to a Progress; the command line picks how
// it is shown (ProgressStyle): on a terminal, one line redrawn in place, and only once the run
// has taken `delay` (short runs print nothing); in a log, plain lines, one per stage and at most
// one per `log_interval` between, from `log_delay` on; with a heartbeat, a log line every
// `log_interval` even while one step (a long compile) reports nothing, so a CI log never goes
// quiet on a long run. Thread-safe: steps report from worker threads. The clock is a seam for
// tests.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

namespace kforecast {

enum class ProgressStyle { silent, live, log };

class Progress {
 public:
  using Clock = std::function<double()>;  // seconds on a monotonic clock

  explicit Progress(std::ostream& out, ProgressStyle style, Clock clock = steady_seconds);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // A new stage ("scanning", "forecasting"), of `total` `items` ("kernels"); total 0: not counted.
  void stage(std::string_view name, std::size_t total = 0, std::string_view items = "kernels");
  // How many items of the stage are done.
  void advance(std::size_t done);
  void add_gpu_seconds(double seconds);
  // What the current item is doing ("measuring sgemm: round 3"), shown after the counts until the
  // next stage; live: redrawn; log: within the interval's limit.
  void detail(std::string_view text);
  // A live line is cleared, so that a warning written next starts on a clean line; it is drawn
  // again at the next report.
  void clear_line();
  // The run is over: a live line is cleared, so what follows starts on a clean line; the
  // heartbeat stops.
  void finish();
  // Log style: a line now if the last one is `log_interval` old (the heartbeat calls this).
  void tick();
  // Log style: calls tick() every `period` on a thread of its own until finish().
  void start_heartbeat(std::chrono::milliseconds period = std::chrono::seconds(1));

  static double steady_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }

  double delay = 2.0;          // live: nothing is shown before the run has taken this long
  double live_interval = 0.1;  // live: redrawn at most this often
  double log_interval = 10.0;  // log: a line within a stage at most this often
  double log_delay = 0.0;      // log: nothing is shown before the run has taken this long

 private:
  void show(bool stage_changed);  // with m_mutex held
  std::string line() const;

  std::mutex m_mutex;
  std::jthread m_heartbeat;
  std::condition_variable_any m_wake;

  std::ostream& m_out;
  ProgressStyle m_style;
  Clock m_clock;
  double m_start;
  double m_last_shown = -1e300;
  bool m_live_shown = false;
  std::string m_stage, m_items, m_detail;
  std::size_t m_done = 0, m_total = 0;
  double m_gpu_seconds = 0;
};

}  // namespace kforecast
