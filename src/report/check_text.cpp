// SPDX-License-Identifier: Apache-2.0
#include "report/check_text.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

#include <fmt/format.h>

#include "base/plain_text.hpp"

namespace kforecast::report {
namespace {

constexpr int label_width = 13;

// A labelled line; text of several lines (a compile log in a note) continues quoted under it, so
// no line starts with text of the change (base/plain_text.hpp).
void line(std::ostream& out, std::string_view label, std::string_view text) {
  out << quoted_lines(text, fmt::format("  {:<{}} ", label, label_width), std::string(label_width + 3, ' '));
}

std::string decision_text(report::Decision decision) {
  std::string text(report::to_string(decision));
  std::ranges::replace(text, '_', ' ');
  return text;
}

std::string measurement_text(const report::MeasurementEntry& m) {
  if (!(m.speedup > 0) || !std::isfinite(m.speedup)) return fmt::format("{}: {}", m.verdict, m.reason);
  const auto bound = [](double value) { return std::isfinite(value) ? fmt::format("{:.3f}", value) : "?"; };
  std::string text = fmt::format("{:.3f}x [{}, {}]: {}", m.speedup, bound(m.ci_low), bound(m.ci_high), m.verdict);
  if (m.t_base_us > 0) text += fmt::format(" ({:.2f} us -> {:.2f} us per launch", m.t_base_us, m.t_head_us);
  if (m.t_base_us > 0) text += m.gpu.empty() ? ")" : fmt::format(", {})", m.gpu);
  if (!m.reason.empty()) text += fmt::format("; {}", m.reason);
  return text;
}

// `check` compares one kernel whether or not it changed; the change is then "unchanged", not the
// "modified" a pair of sides is recorded as (the gate's note says "no source change from ...").
std::string_view change_text(const report::KernelEntry& entry) {
  const bool same_source = !entry.notes.empty() && entry.notes.front().starts_with("no source change from ");
  return same_source && entry.change == report::Change::modified ? "unchanged" : report::to_string(entry.change);
}

void write_kernel(std::ostream& out, const report::KernelEntry& entry) {
  // The name starts the line: one line, and quoted where a runner would read it as a command.
  out << "\n"
      << quoted_lines(fmt::format("{}  {}:{}  {}", printable_line(entry.name), printable_line(entry.file), entry.line,
                                  change_text(entry)),
                      "", "");
  if (entry.forecast) {
    const auto& f = *entry.forecast;
    line(out, "forecast",
         fmt::format("bin {} {}  [{}]  (bins 1..8: severe slowdown .. extreme speedup)", f.bin, f.bin_label,
                     distribution_bar(f.probabilities)));
    line(out, "P(regression)", fmt::format("{:.2f}", f.p_regression));
    line(out, "confidence",
         fmt::format("{:.2f}  ({}{})", f.confidence, f.forecaster,
                     f.fallback_for.empty() ? "" : fmt::format(", fallback: {} failed", f.fallback_for)));
    if (!f.rationale.empty()) line(out, "rationale", f.rationale);
  }
  line(out, "decision", decision_text(entry.decision));
  if (entry.measurement) line(out, "measured", measurement_text(*entry.measurement));
  line(out, "verdict", report::to_string(entry.verdict));
  for (const auto& note : entry.notes) line(out, "note", note);
  if (!entry.build.empty()) line(out, "built by", entry.build);
}

}  // namespace

std::string distribution_bar(const std::array<double, 8>& probabilities) {
  static constexpr std::array<std::string_view, 8> blocks{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  double top = 0;
  for (const double p : probabilities)
    if (std::isfinite(p)) top = std::max(top, p);
  std::string bar;
  for (const double p : probabilities) {
    const double share = top > 0 && std::isfinite(p) ? std::clamp(p / top, 0.0, 1.0) : 0.0;
    bar += blocks[static_cast<std::size_t>(std::lround(share * 7))];
  }
  return bar;
}

void write_check_text(std::ostream& out, const report::Report& report) {
  // The first line as the report's: whether every kernel was judged, and any warning's headline.
  std::string first = report::summary(report);
  for (std::size_t i = 0; i < report.warnings.size(); ++i)
    first += (i == 0 ? "; warning: " : "; ") + report.warnings[i].headline;
  out << fmt::format("kforecast check: {}\n", printable_line(first));
  for (const auto& entry : report.kernels) write_kernel(out, entry);
  if (!report.notes.empty()) out << "\n";
  for (const auto& note : report.notes) out << quoted_lines(note, "note: ", "      ");
}

}  // namespace kforecast::report
