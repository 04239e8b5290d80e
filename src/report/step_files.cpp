// SPDX-License-Identifier: Apache-2.0
#include "report/step_files.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "base/redaction.hpp"
#include "report/writer.hpp"

namespace kforecast::report {

Result<void> append_step_file(const EnvLookup& env, std::string_view variable, std::string_view text) {
  const auto path = env(variable);
  if (!path || path->empty()) return {};
  std::ofstream out(*path, std::ios::binary | std::ios::app);
  if (!out || !(out << redact_secrets(text)) || !out.flush())
    return fail(ExitCode::could_not_run,
                fmt::format("cannot append to {} ({}={})",
                            variable == "GITHUB_OUTPUT" ? "the step outputs" : "the step summary", variable, *path));
  return {};
}

bool report_needs_gpu(const report::Report& report) {
  for (const auto& kernel : report.kernels)
    if (kernel.decision == report::Decision::forecast_only && kernel.verdict == report::KernelVerdict::warn)
      return true;
  return false;
}

Result<void> write_step_report(const report::Report& report, const EnvLookup& env) {
  std::ostringstream markdown;
  report::make_markdown_writer(markdown)->write(report);
  if (auto written = append_step_file(env, "GITHUB_STEP_SUMMARY", markdown.str()); !written) return written;
  return append_step_file(env, "GITHUB_OUTPUT",
                          fmt::format("verdict={}\nneeds_gpu={}\nunjudged={}\n", report::to_string(report.verdict),
                                      report_needs_gpu(report) ? "true" : "false", report::unjudged_kernels(report)));
}

}  // namespace kforecast::report
