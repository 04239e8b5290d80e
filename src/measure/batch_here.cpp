// SPDX-License-Identifier: Apache-2.0
#include "measure/batch_here.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "measure/measuring_process.hpp"

namespace kforecast::measure {
namespace {

using Clock = std::chrono::steady_clock;

// Watches the pair being measured: past its deadline, `on_hang` hears it from this thread. A
// kernel that never returns blocks the measuring thread in the driver, so nothing else could.
class Watchdog {
 public:
  explicit Watchdog(std::function<void(std::size_t index, double seconds)> on_hang)
      : m_on_hang(std::move(on_hang)), m_thread([this] { watch(); }) {}
  ~Watchdog() {
    {
      const std::scoped_lock lock(m_mutex);
      m_done = true;
    }
    m_changed.notify_all();
    m_thread.join();
  }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void arm(std::size_t index, Clock::time_point started, Clock::duration limit) {
    {
      const std::scoped_lock lock(m_mutex);
      m_armed = Armed{index, started, started + limit};
    }
    m_changed.notify_all();
  }
  void disarm() {
    const std::scoped_lock lock(m_mutex);
    m_armed.reset();
  }

 private:
  struct Armed {
    std::size_t index;
    Clock::time_point started, deadline;
  };
  void watch() {
    std::unique_lock lock(m_mutex);
    while (!m_done) {
      if (!m_armed) {
        m_changed.wait(lock);
        continue;
      }
      const Armed armed = *m_armed;
      if (m_changed.wait_until(lock, armed.deadline) == std::cv_status::timeout && m_armed &&
          m_armed->index == armed.index && m_armed->deadline == armed.deadline) {
        m_armed.reset();
        lock.unlock();
        m_on_hang(armed.index, std::chrono::duration<double>(Clock::now() - armed.started).count());
        lock.lock();
      }
    }
  }

  std::function<void(std::size_t, double)> m_on_hang;
  std::mutex m_mutex;
  std::condition_variable m_changed;
  std::optional<Armed> m_armed;
  bool m_done = false;
  std::thread m_thread;  // last: it starts once everything it reads exists
};

// The warm-up of a pair measured right after another: no time of its own, only the runner's
// steady-clock check (two warm-up blocks of each kernel at least, and on until two clock readings
// agree), after the batch-size samples that already ran both kernels.
constexpr double warm_gpu_warmup_ms = 0;

std::size_t default_builds_ahead() {
  // Two compiles per pair (each a child process; nvcc takes about a core): half the cores busy
  // compiling leaves the rest to the process that feeds the GPU.
  const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
  return std::clamp<std::size_t>(cores / 4, 1, 8);
}

}  // namespace

Result<BatchEnd> measure_batch_here(const std::vector<BenchPair>& pairs, const config::Config& config,
                                    const BenchWorld& world, const BatchOptions& options,
                                    const std::function<void(const BatchResult&)>& emit,
                                    const std::function<void(const BatchResult&)>& on_hang) {
  auto process = MeasuringProcess::open(world, options.builds_folder);
  if (!process) return std::unexpected(process.error());
  const std::size_t ahead = options.builds_ahead > 0 ? options.builds_ahead : default_builds_ahead();
  // Each pair prepared (files read, spec or captures bound) before its builds start: a mistake is
  // that pair's error line, and the batch goes on.
  std::vector<std::optional<PendingPair>> pending(pairs.size());
  std::vector<std::optional<Error>> unprepared(pairs.size());
  std::size_t started = 0;
  const auto start_up_to = [&](std::size_t end) {
    for (; started < std::min(end, pairs.size()); ++started) {
      auto prepared = prepare_pair(pairs[started], config, world);
      if (!prepared)
        unprepared[started] = prepared.error().error;
      else
        pending[started] = (*process)->start(pairs[started], std::move(*prepared));
    }
  };
  Watchdog watchdog([&](std::size_t index, double seconds) {
    auto failed = bench::failed_measurement(fmt::format(
        "the measurement did not finish within bench.timeout_seconds ({:g} s) and was stopped: a kernel that hangs, or a "
        "limit too low for this spec",
        options.timeout_seconds));
    failed.gpu_seconds = seconds;
    on_hang({index, seconds, std::move(failed)});
  });
  // The first pair's warm-up brings the GPU's clocks up from idle; the pairs after it find them up
  // (the GPU was busy a few milliseconds before) and need only the steady-clock check.
  bench::RunnerOptions runner = options.runner;
  double spent = 0;
  auto last = Clock::now();
  const auto since_last = [&] {
    const auto now = Clock::now();
    const double seconds = std::chrono::duration<double>(now - last).count();
    last = now;
    return seconds;
  };
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (options.budget_seconds > 0 && spent >= options.budget_seconds) {
      for (std::size_t rest = i; rest < pairs.size(); ++rest)
        emit({rest, 0,
              BatchSkipped{fmt::format("the GPU budget was spent ({:.1f} s of {:g} s) before it was started", spent,
                                       options.budget_seconds)}});
      return BatchEnd::finished;
    }
    start_up_to(i + 1 + ahead);
    if (unprepared[i]) {
      const auto& error = *unprepared[i];
      emit({i, since_last(), BatchError{error.message, error.exit_code == ExitCode::could_not_run ? 3 : 2}});
      continue;
    }
    watchdog.arm(i, Clock::now(), std::chrono::duration_cast<Clock::duration>(
                                      std::chrono::duration<double>(options.timeout_seconds)));
    auto measurement = (*process)->measure(*pending[i], runner);
    watchdog.disarm();
    pending[i].reset();
    if (!measurement) {
      // Nothing can be measured in this process (no context, no support kernels): the same for
      // every pair, so the batch ends with it.
      if (measurement.error().exit_code == ExitCode::could_not_run) return std::unexpected(measurement.error());
      emit({i, since_last(), BatchError{measurement.error().message, 2}});
      continue;
    }
    spent += measurement->gpu_seconds;
    runner.warmup_ms = std::min(runner.warmup_ms, warm_gpu_warmup_ms);
    const bool failed = measurement->verdict == bench::Verdict::failed;
    emit({i, since_last(), std::move(*measurement)});
    if (failed && i + 1 < pairs.size()) return BatchEnd::stopped_after_failure;
  }
  return BatchEnd::finished;
}

}  // namespace kforecast::measure
