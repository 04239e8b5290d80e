// SPDX-License-Identifier: Apache-2.0
// The Markdown report: a verdict line, a table per kernel, notes. Kernel names, paths and notes
// come from the pull request, so every one is escaped for where it stands.

#include <fmt/format.h>

#include <cmath>

#include "report/entry_text.hpp"
#include "report/writer.hpp"

namespace kforecast::report {
namespace {

// Text in a table cell or a list item: no table breakage, no HTML, no @mentions.
std::string text_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '|':
        out += "\\|";
        break;
      // Backslash escapes, not HTML entities: the text reads the same in the Markdown source
      // (a log, a terminal) as rendered, and still cannot open a tag or an entity.
      case '<':
        out += "\\<";
        break;
      case '>':
        out += "\\>";
        break;
      case '&':
        out += "\\&";
        break;
      case '`':
        out += "'";
        break;
      case '@':
        out += "@\u200b";
        break;
      case '\n':
      case '\r':
      case '\t':
        out += ' ';
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20) out += c;
    }
  }
  return out;
}

// Text inside a code span: rendered literally, so only what ends the span or the table row
// needs care (GitHub's tables honour \| even inside code spans).
std::string code_cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '`')
      out += "'";
    else if (c == '\n' || c == '\r' || c == '\t')
      out += ' ';
    else if (static_cast<unsigned char>(c) >= 0x20)
      out += c;
  }
  return out;
}

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
    out() << fmt::format("## kforecast: {}\n\n", text_cell(heading));
    for (const RunWarning& warning : report.warnings)
      out() << fmt::format("> **Warning:** {}\n\n", text_cell(warning_text(warning)));
    out() << fmt::format("Compared `{}` (base) with `{}` (head): ", report.base.substr(0, 12),
                         report.head.substr(0, 12));
    if (report.kernels.empty()) {
      out() << "no CUDA kernel changed.\n";
      return;
    }
    out() << fmt::format("{} kernel{} changed.\n\n", report.kernels.size(), report.kernels.size() == 1 ? "" : "s");
    out() << "| kernel | where | change | decision | verdict |\n|---|---|---|---|---|\n";
  }

  void kernel(const KernelEntry& entry, std::size_t) override {
    out() << fmt::format("| `{}` | `{}:{}` | {} | {} | {} |\n", code_cell(entry.name), code_cell(entry.file),
                         entry.line, to_string(entry.change), decision_text(entry), to_string(entry.verdict));
  }

  void end(const Report& report) override {
    // Why each kernel that did not pass did not, where a reader sees it without unfolding notes.
    std::string reasons;
    for (const KernelEntry& entry : report.kernels)
      if (const std::string reason = verdict_reason(entry); !reason.empty())
        reasons += fmt::format("- `{}` ({}): {}\n", code_cell(entry.name), to_string(entry.verdict),
                               text_cell(first_line(reason)));
    if (!reasons.empty()) out() << "\n" << reasons;
    std::string forecasts;
    for (const KernelEntry& entry : report.kernels) {
      if (!entry.forecast) continue;
      const ForecastEntry& f = *entry.forecast;
      const std::string fallback =
          f.fallback_for.empty() ? "" : fmt::format(" (fallback: {} failed)", text_cell(f.fallback_for));
      forecasts += fmt::format("| `{}` | {}: {} | {:.2f} | {:.2f} | {}{} `{}` |\n", code_cell(entry.name), f.bin,
                               text_cell(f.bin_label), f.confidence, f.p_regression, text_cell(f.forecaster), fallback,
                               code_cell(f.model));
    }
    if (!forecasts.empty()) {
      out() << "\n| kernel | forecast bin | confidence | P(regression) | forecaster |\n|---|---|---|---|---|\n"
            << forecasts;
      for (const KernelEntry& entry : report.kernels) {
        if (!entry.forecast) continue;
        const ForecastEntry& f = *entry.forecast;
        if (!f.fallback_for.empty())
          out() << fmt::format("\n> `{}`: **fallback** to the {} forecaster because the {} forecast failed: {}\n",
                               code_cell(entry.name), text_cell(f.forecaster), text_cell(f.fallback_for),
                               text_cell(f.fallback_reason));
        if (!f.rationale.empty()) out() << fmt::format("\n> `{}`: {}\n", code_cell(entry.name), text_cell(f.rationale));
      }
    }
    std::string measurements;
    for (const KernelEntry& entry : report.kernels) {
      if (!entry.measurement) continue;
      const MeasurementEntry& m = *entry.measurement;
      measurements += fmt::format(
          "| `{}` | {} | {} | {} | {:.2f} |\n", code_cell(entry.name), speedup_text(m),
          m.base_broken ? std::string("base broken, head not judged") : text_cell(m.verdict),
          m.t_base_us > 0 ? fmt::format("{:.2f} us -> {:.2f} us", m.t_base_us, m.t_head_us) : std::string("-"),
          m.gpu_seconds);
    }
    if (!measurements.empty())
      out() << "\n| kernel | measured speedup [interval] | measured | time per launch (base -> head) | GPU s |\n"
               "|---|---|---|---|---|\n"
            << measurements;
    if (report.gpu_time) out() << "\n" << text_cell(gpu_time_text(*report.gpu_time)) << "\n";
    // Every note, folded; a note all kernels share (a machine-wide condition) is listed once.
    const auto shared = notes_shared_by_all(report.kernels);
    std::string notes;
    for (const std::string& note : shared) notes += fmt::format("- every kernel: {}\n", text_cell(note));
    for (const KernelEntry& entry : report.kernels) {
      for (const std::string& note : entry.notes)
        if (!shared.contains(note)) notes += fmt::format("- `{}`: {}\n", code_cell(entry.name), text_cell(note));
      if (!entry.build.empty())
        notes += fmt::format("- `{}`: built by {}\n", code_cell(entry.name), text_cell(entry.build));
    }
    for (const std::string& note : report.notes) notes += fmt::format("- {}\n", text_cell(note));
    if (!notes.empty()) out() << "\n<details><summary>Notes</summary>\n\n" << notes << "\n</details>\n";
  }
};

}  // namespace

std::unique_ptr<Writer> make_markdown_writer(std::ostream& out) { return std::make_unique<MarkdownWriter>(out); }

}  // namespace kforecast::report
