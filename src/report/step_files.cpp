// SPDX-License-Identifier: Apache-2.0
#include "report/step_files.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "base/redaction.hpp"
#include "report/comment_fit.hpp"
#include "report/writer.hpp"

namespace kforecast::report {
namespace {

constexpr std::string_view summary_variable = "GITHUB_STEP_SUMMARY";

Result<void> append_whole(const std::string& path, std::string_view variable, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  if (!out || !(out << text) || !out.flush())
    return fail(ExitCode::could_not_run,
                fmt::format("cannot append to {} ({}={})",
                            variable == "GITHUB_OUTPUT" ? "the step outputs" : "the step summary", variable, path));
  return {};
}

}  // namespace

Result<void> append_step_file(const EnvLookup& env, std::string_view variable, std::string_view text) {
  if (variable == summary_variable) return append_step_summary(env, text, full_report_elsewhere);
  const auto path = env(variable);
  if (!path || path->empty()) return {};
  return append_whole(*path, variable, redact_secrets(text));
}

Result<void> append_step_summary(const EnvLookup& env, std::string_view markdown, std::string_view full_report,
                                 std::size_t limit) {
  const auto path = env(summary_variable);
  if (!path || path->empty()) return {};
  // Earlier steps of the same run write files of their own; this step's earlier writes count.
  std::error_code error;
  const std::uintmax_t held = std::filesystem::exists(*path, error) ? std::filesystem::file_size(*path, error) : 0;
  const std::size_t room = error || held >= limit ? 0 : limit - static_cast<std::size_t>(held);
  const auto note = [&](const LeftOut& left_out) {
    return fmt::format(
        "\n\n**This report is longer than a step summary holds ({} bytes), so it was cut here: {} of its {} lines "
        "are left out (the rest of its tables and notes).** The full report: {}\n",
        limit, left_out.lines, left_out.of_lines, full_report);
  };
  const std::string fitted = fit_markdown(redact_secrets(markdown), room, note, false);
  if (fitted.empty()) return {};
  return append_whole(*path, summary_variable, fitted);
}

bool report_needs_gpu(const report::Report& report) {
  for (const auto& kernel : report.kernels)
    if (kernel.decision == report::Decision::forecast_only && kernel.verdict == report::KernelVerdict::warn)
      return true;
  return false;
}

Result<void> write_step_report(const report::Report& report, const EnvLookup& env, std::string_view full_report) {
  std::ostringstream markdown;
  report::make_markdown_writer(markdown)->write(report);
  if (auto written = append_step_summary(env, markdown.str(), full_report); !written) return written;
  return append_step_file(env, "GITHUB_OUTPUT",
                          fmt::format("verdict={}\nneeds_gpu={}\nunjudged={}\n", report::to_string(report.verdict),
                                      report_needs_gpu(report) ? "true" : "false", report::unjudged_kernels(report)));
}

}  // namespace kforecast::report
