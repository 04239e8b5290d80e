// SPDX-License-Identifier: Apache-2.0
// The Markdown report: a verdict line, a table per kernel, notes. Every string of the report may
// come from the pull request or a plan file (revisions too), so each one passes markdown_text.hpp;
// only the writer's own words and numbers are written as they are.

#include <fmt/format.h>

#include <cmath>

#include "report/entry_text.hpp"
#include "report/markdown_text.hpp"
#include "report/writer.hpp"

namespace kforecast::report {
namespace {

// Untrusted text goes through markdown_text.hpp's escaping only: `text` for inline text, `code` for
// a code span outside a table, `cell_code` for one inside.
std::string text(std::string_view untrusted) { return markdown_text(untrusted); }
std::string code(std::string_view untrusted) { return markdown_code(untrusted); }
std::string cell_code(std::string_view untrusted) { return markdown_code(untrusted, MarkdownPlace::table_cell); }

// A reason's first line: a compiler's log follows it in the notes.
std::string_view first_line(std::string_view text) { return text.substr(0, text.find('\n')); }

class MarkdownWriter final : public Writer {
 public:
  using Writer::Writer;

 protected:
  void begin(const Report& report) override {
    // The first line is what a reader (and a notification) sees: the verdict, whether every
    // kernel was judged, and any warning's headline.
    std::string heading = summary(report);
    for (std::size_t i = 0; i < report.warnings.size(); ++i)
      heading += (i == 0 ? "; warning: " : "; ") + report.warnings[i].headline;
    out() << fmt::format("## kforecast: {}\n\n", text(heading));
    for (const RunWarning& warning : report.warnings)
      out() << fmt::format("> **Warning:** {}\n\n", text(warning_text(warning)));
    out() << fmt::format("Compared {} (base) with {} (head): ", code(report.base.substr(0, 12)),
                         code(report.head.substr(0, 12)));
    if (report.kernels.empty()) {
      out() << "no CUDA kernel changed.\n";
      return;
    }
    out() << fmt::format("{} kernel{} changed.\n\n", report.kernels.size(), report.kernels.size() == 1 ? "" : "s");
    out() << "| kernel | where | change | decision | verdict |\n|---|---|---|---|---|\n";
  }

  void kernel(const KernelEntry& entry, std::size_t) override {
    out() << fmt::format("| {} | {} | {} | {} | {} |\n", cell_code(entry.name),
                         cell_code(fmt::format("{}:{}", entry.file, entry.line)), to_string(entry.change),
                         decision_text(entry), to_string(entry.verdict));
  }

  void end(const Report& report) override {
    // Why each kernel that did not pass did not, where a reader sees it without unfolding notes.
    std::string reasons;
    for (const KernelEntry& entry : report.kernels)
      if (const std::string reason = verdict_reason(entry); !reason.empty())
        reasons += fmt::format("- {} ({}): {}\n", code(entry.name), to_string(entry.verdict), text(first_line(reason)));
    if (!reasons.empty()) out() << "\n" << reasons;
    std::string forecasts;
    for (const KernelEntry& entry : report.kernels) {
      if (!entry.forecast) continue;
      const ForecastEntry& f = *entry.forecast;
      const std::string fallback =
          f.fallback_for.empty() ? "" : fmt::format(" (fallback: {} failed)", text(f.fallback_for));
      forecasts +=
          fmt::format("| {} | {}: {} | {:.2f} | {:.2f} | {}{} {} |\n", cell_code(entry.name), f.bin, text(f.bin_label),
                      f.confidence, f.p_regression, text(f.forecaster), fallback, cell_code(f.model));
    }
    if (!forecasts.empty()) {
      out() << "\n| kernel | forecast bin | confidence | P(regression) | forecaster |\n|---|---|---|---|---|\n"
            << forecasts;
      for (const KernelEntry& entry : report.kernels) {
        if (!entry.forecast) continue;
        const ForecastEntry& f = *entry.forecast;
        if (!f.fallback_for.empty())
          out() << fmt::format("\n> {}: **fallback** to the {} forecaster because the {} forecast failed: {}\n",
                               code(entry.name), text(f.forecaster), text(f.fallback_for), text(f.fallback_reason));
        if (!f.rationale.empty()) out() << fmt::format("\n> {}: {}\n", code(entry.name), text(f.rationale));
      }
    }
    std::string measurements;
    for (const KernelEntry& entry : report.kernels) {
      if (!entry.measurement) continue;
      const MeasurementEntry& m = *entry.measurement;
      measurements += fmt::format(
          "| {} | {} | {} | {} | {:.2f} | {:.1f} |\n", cell_code(entry.name), speedup_text(m),
          m.base_broken ? std::string("base broken, head not judged") : text(m.verdict),
          m.t_base_us > 0 ? fmt::format("{:.2f} us -> {:.2f} us", m.t_base_us, m.t_head_us) : std::string("-"),
          m.gpu_seconds, m.wall_seconds);
    }
    if (!measurements.empty())
      out() << "\n| kernel | measured speedup [interval] | measured | time per launch (base -> head) | GPU s | wall s |\n"
               "|---|---|---|---|---|---|\n"
            << measurements;
    if (report.gpu_time) out() << "\n" << text(gpu_time_text(*report.gpu_time)) << "\n";
    // Every note, folded; a note all kernels share (a machine-wide condition) is listed once.
    const auto shared = notes_shared_by_all(report.kernels);
    std::string notes;
    for (const std::string& note : shared) notes += fmt::format("- every kernel: {}\n", text(note));
    for (const KernelEntry& entry : report.kernels) {
      for (const std::string& note : entry.notes)
        if (!shared.contains(note)) notes += fmt::format("- {}: {}\n", code(entry.name), text(note));
      if (!entry.build.empty()) notes += fmt::format("- {}: built by {}\n", code(entry.name), text(entry.build));
    }
    for (const std::string& note : report.notes) notes += fmt::format("- {}\n", text(note));
    if (!notes.empty()) out() << "\n<details><summary>Notes</summary>\n\n" << notes << "\n</details>\n";
  }
};

}  // namespace

std::unique_ptr<Writer> make_markdown_writer(std::ostream& out) { return std::make_unique<MarkdownWriter>(out); }

}  // namespace kforecast::report
