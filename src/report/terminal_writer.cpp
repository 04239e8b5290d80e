// SPDX-License-Identifier: Apache-2.0
// The report for a person at a terminal: the verdict first, one line per kernel with its decision
// and verdict, and under each kernel that did not pass the reason and its notes, unfolded; a
// note every kernel shares (no NVRTC, no GPU) once, not once per kernel; the run's notes last.
// Kernel names, paths and notes come from the pull request or a plan: each passes
// base/plain_text.hpp (no control character, no line that starts with their text) before it is
// printed.

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "base/plain_text.hpp"
#include "report/entry_text.hpp"
#include "report/writer.hpp"

namespace kforecast::report {
namespace {

// Lines of a note, at most `max_lines` (a compiler's log can run to hundreds): the first after
// `first`, the rest under it, quoted (base/plain_text.hpp): a line of a log never starts a line here.
constexpr std::string_view more_lines = "... (the rest in --format md or json)";
std::string indented(std::string_view text, std::string_view first, std::size_t max_lines = 8) {
  return quoted_lines(text, first, std::string(first.size(), ' '), max_lines, more_lines);
}

std::string shortened(std::string text, std::size_t width) {
  if (text.size() > width) text = text.substr(0, width - 3) + "...";
  return text;
}

class TerminalWriter final : public Writer {
 public:
  TerminalWriter(std::ostream& out, bool colour) : Writer(out), m_colour(colour) {}

 protected:
  void begin(const Report& report) override {
    const auto colour = report.verdict == GateVerdict::fail                        ? red
                        : unjudged_kernels(report) > 0 || !report.warnings.empty() ? yellow
                                                                                   : green;
    out() << fmt::format("kforecast: {}\n", paint(colour, printable_line(summary(report)), true));
    // The label is painted after the text is made safe: the colour is the writer's own.
    for (const RunWarning& warning : report.warnings)
      out() << quoted_lines(warning_text(warning), paint(yellow, "warning:", true) + " ", "         ", 8, more_lines);
    out() << fmt::format("base {} -> head {}: ", printable_line(report.base.substr(0, 12)),
                         printable_line(report.head.substr(0, 12)));
    if (report.kernels.empty()) {
      out() << "no CUDA kernel changed\n";
      return;
    }
    out() << fmt::format("{} kernel{} changed\n\n", report.kernels.size(), report.kernels.size() == 1 ? "" : "s");
    for (const KernelEntry& entry : report.kernels) {
      m_name_width = std::max(m_name_width, std::min<std::size_t>(entry.name.size(), 40));
      m_where_width = std::max(m_where_width, std::min<std::size_t>(where(entry).size(), 40));
    }
    m_shared = notes_shared_by_all(report.kernels);
    if (report.gpu_time && !report.gpu_time->unavailable.empty()) {
      m_unavailable = report.gpu_time->unavailable;
      m_unavailable_short =
          fmt::format("{} (see above)", report.gpu_time->note.empty() ? "unavailable" : report.gpu_time->note);
      out() << quoted_lines(m_unavailable, paint(yellow, "no measurement:", true) + " ", "                ", 8,
                            more_lines)
            << "\n";
    }
  }

  void kernel(const KernelEntry& entry, std::size_t) override {
    const auto [colour, word] = entry.verdict == KernelVerdict::fail   ? std::pair{red, "FAIL"}
                                : entry.verdict == KernelVerdict::warn ? std::pair{yellow, "warn"}
                                                                       : std::pair{green, "pass"};
    std::string line = fmt::format("  {}  {:<{}}  {:<{}}  {:<8}  {:<16}  {}", paint(colour, word, true),
                                   printable_line(shortened(entry.name, 40)), m_name_width,
                                   printable_line(shortened(where(entry), 40)), m_where_width, to_string(entry.change),
                                   decision_text(entry), printable_line(outcome(entry)));
    line.erase(line.find_last_not_of(' ') + 1);
    out() << line << "\n";
    if (entry.verdict == KernelVerdict::pass) return;
    // The machine-wide condition was said once above; each kernel keeps the rest of its reason.
    const std::string reason = verdict_reason(entry);
    const std::string shown =
        m_unavailable.empty() ? reason : replace_first(reason, m_unavailable, m_unavailable_short);
    if (!shown.empty()) out() << indented(fmt::format("why: {}", shown), "        ");
    for (const std::string& note : entry.notes)
      if (!m_shared.contains(note) &&
          (reason.empty() || (reason.find(note) == std::string::npos && note.find(reason) == std::string::npos)))
        out() << indented(note, "        - ", 4);
    if (entry.build.empty()) return;
    // A build line runs to hundreds of characters (the defines kforecast inferred); kernels of one
    // unit share it, so it is shown in full once and named after that.
    const auto [first, added] = m_build_shown.try_emplace(entry.build, entry.name);
    out() << (added ? indented(fmt::format("built by {}", entry.build), "        - ", 2)
                    : indented(fmt::format("built as {} above", printable_line(first->second)), "        - ", 2));
  }

  void end(const Report& report) override {
    if (!m_shared.empty()) {
      out() << "\nevery kernel:\n";
      for (const std::string& note : m_shared) out() << indented(note, "  - ", 4);
    }
    if (report.gpu_time) out() << "\n" << indented(gpu_time_text(*report.gpu_time), "", 8);
    if (!report.notes.empty()) {
      out() << "\nrun:\n";
      for (const std::string& note : report.notes) out() << indented(note, "  - ", 4);
    }
  }

 private:
  static constexpr std::string_view red = "31", yellow = "33", green = "32";

  std::string paint(std::string_view colour, std::string_view text, bool bold) const {
    if (!m_colour) return std::string(text);
    return fmt::format("\x1b[{}{}m{}\x1b[0m", bold ? "1;" : "", colour, text);
  }

  static std::string where(const KernelEntry& entry) { return fmt::format("{}:{}", entry.file, entry.line); }

  // What settled the kernel, in a few words: the measurement, the forecast, or nothing.
  static std::string outcome(const KernelEntry& entry) {
    if (entry.measurement && entry.measurement->verdict == "failed")
      return fmt::format("failed, {:.2f} GPU-s, {:.1f} s wall", entry.measurement->gpu_seconds,
                         entry.measurement->wall_seconds);
    if (entry.measurement)
      return fmt::format("{} {}, {:.2f} GPU-s, {:.1f} s wall", entry.measurement->verdict,
                         speedup_text(*entry.measurement), entry.measurement->gpu_seconds,
                         entry.measurement->wall_seconds);
    // The most probable bin with its probability: "minor slowdown" alone read as a prediction
    // where the model had next to no evidence (20%, against 12.5% for a uniform guess).
    if (entry.forecast)
      return fmt::format("forecast bin {} ({}, {:.0f}%), P(regression) {:.2f}", entry.forecast->bin,
                         entry.forecast->bin_label, 100 * entry.forecast->confidence, entry.forecast->p_regression);
    return "";
  }

  static std::string replace_first(std::string text, std::string_view what, std::string_view with) {
    if (const auto at = text.find(what); at != std::string::npos) text.replace(at, what.size(), with);
    return text;
  }

  bool m_colour;
  std::string m_unavailable, m_unavailable_short;
  std::size_t m_name_width = 6, m_where_width = 5;
  std::set<std::string> m_shared;
  std::map<std::string, std::string> m_build_shown;  // build line -> the first kernel shown with it
};

}  // namespace

std::unique_ptr<Writer> make_terminal_writer(std::ostream& out, bool colour) {
  return std::make_unique<TerminalWriter>(out, colour);
}

}  // namespace kforecast::report
