// SPDX-License-Identifier: Apache-2.0
#include "bench/measurement_text.hpp"

#include <cmath>

#include <fmt/format.h>

namespace kforecast::bench {
namespace {

std::string bound(double value) { return std::isfinite(value) ? fmt::format("{:.4f}", value) : "unbounded"; }

std::string interval_text(const Measurement& m) {
  if (m.verdict == Verdict::failed || !(m.interval.speedup > 0)) return "not measured";
  return fmt::format("{:.4f}x  [{}, {}] at {:g}% confidence, {} rounds (tolerance {:g}%)", m.interval.speedup,
                     bound(m.interval.low), bound(m.interval.high), m.confidence * 100, m.interval.rounds,
                     m.tolerance * 100);
}

std::string verdict_text(const Measurement& m) {
  if (m.verdict == Verdict::failed && m.blame == Blame::reference)
    return "failed: the reference is broken, the candidate is not judged";
  return std::string(verdict_name(m.verdict));
}

// A size that failed stopped the measurement, so its reason is the measurement's.
std::string size_text(const SizeMeasurement& size) {
  if (size.verdict == Verdict::failed) return fmt::format("{}: failed, not timed (see reason)", size.size);
  return fmt::format("{}: {} {:.4f}x [{}, {}], {} rounds, {} launches per sample", size.size, verdict_name(size.verdict),
                     size.interval.speedup, bound(size.interval.low), bound(size.interval.high),
                     size.round_log_speedups.size(), size.batch);
}

}  // namespace

std::string measurement_text(const Measurement& m, std::string_view candidate, std::string_view reference) {
  std::string out = fmt::format("kforecast bench: {} (candidate) vs {} (reference)\n", candidate, reference);
  const auto line = [&](std::string_view label, std::string_view text) {
    out += fmt::format("  {:<10} {}\n", label, text);
  };
  line("verdict", verdict_text(m));
  if (!m.reason.empty()) line("reason", m.reason);
  line("speedup", interval_text(m));
  if (m.verdict != Verdict::failed && m.t_base_us > 0)
    line("time", fmt::format("reference {:.3f} us, candidate {:.3f} us per launch (median; L2 flushed)", m.t_base_us,
                             m.t_head_us));
  for (const auto& size : m.sizes) line("size", size_text(size));
  if (!m.gpu.empty()) line("gpu", fmt::format("{}, driver {}", m.gpu, m.driver));
  if (m.sm_clock_median_mhz > 0)
    line("clocks", fmt::format("SM {} MHz median, {} MHz lowest block; throttle reasons 0x{:x}", m.sm_clock_median_mhz,
                               m.sm_clock_min_mhz, m.throttle_reasons));
  line("gpu time", fmt::format("{:.2f} s{}{}", m.gpu_seconds,
                               m.wall_seconds > 0 ? fmt::format(", wall {:.2f} s", m.wall_seconds) : std::string(),
                               m.regression_checks > 1 ? " (regression re-measured in a fresh process)" : ""));
  for (const auto& note : m.notes) line("note", note);
  return out;
}

}  // namespace kforecast::bench
