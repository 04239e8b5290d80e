// SPDX-License-Identifier: Apache-2.0
#include "report/entry_text.hpp"

#include <cmath>

#include <fmt/format.h>

namespace kforecast::report {

std::string decision_text(const KernelEntry& entry) {
  if (entry.decision == Decision::forecast_only && !entry.forecast) return "not judged";
  std::string text(to_string(entry.decision));
  for (char& c : text)
    if (c == '_') c = ' ';
  return text;
}

std::string speedup_text(const MeasurementEntry& m) {
  if (m.verdict == "failed" || !(m.speedup > 0) || !std::isfinite(m.speedup)) return "not timed";
  const auto bound = [](double value) { return std::isfinite(value) ? fmt::format("{:.3f}", value) : "?"; };
  return fmt::format("{:.3f}x [{}, {}]", m.speedup, bound(m.ci_low), bound(m.ci_high));
}

std::string verdict_reason(const KernelEntry& entry) {
  if (entry.verdict == KernelVerdict::pass) return "";
  if (entry.measurement && !entry.measurement->reason.empty())
    return fmt::format("measured {}: {}", entry.measurement->verdict, entry.measurement->reason);
  // The gate's own notes for the two ways a kernel ends without a measured verdict.
  for (const std::string& note : entry.notes)
    if (note.find(" does not compile for ") != std::string::npos && !note.starts_with("the base")) return note;
  for (const std::string& note : entry.notes)
    if (note.starts_with("unverified: ")) return note.substr(12);
  return "";  // a measured verdict without a reason (a regression) is its own reason
}

std::string gpu_time_text(const GpuTime& time) {
  std::string text = time.measured == 0 ? "GPU time: none spent"
                                        : fmt::format("GPU time: {:.1f} s spent measuring {} of {} changed kernel{} "
                                                      "({:.1f} s of wall time)",
                                                      time.spent_seconds, time.measured, time.measurable,
                                                      time.measurable == 1 ? "" : "s", time.wall_seconds);
  if (time.saved_seconds && time.per_kernel_seconds)
    text += fmt::format(
        "; {} against measuring all {} (estimated at {:.1f} s each, the median of this run's "
        "measurements)",
        *time.saved_seconds > 0 ? fmt::format("about {:.1f} s saved", *time.saved_seconds)
                                : std::string("nothing saved"),
        time.measurable, *time.per_kernel_seconds);
  if (!time.note.empty()) text += fmt::format(" ({})", time.note);
  return text + ".";
}

std::set<std::string> notes_shared_by_all(const std::vector<KernelEntry>& kernels) {
  if (kernels.size() < 2) return {};
  std::set<std::string> shared(kernels.front().notes.begin(), kernels.front().notes.end());
  for (std::size_t i = 1; i < kernels.size() && !shared.empty(); ++i) {
    const std::set<std::string> own(kernels[i].notes.begin(), kernels[i].notes.end());
    std::erase_if(shared, [&](const std::string& note) { return !own.contains(note); });
  }
  return shared;
}

}  // namespace kforecast::report
