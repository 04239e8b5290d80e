// SPDX-License-Identifier: Apache-2.0
#include "cli/report_output.hpp"

#include <fstream>

#include <fmt/format.h>

#include "base/redaction.hpp"
#include "http/curl_transport.hpp"
#include "publish/report_comment.hpp"
#include "report/step_files.hpp"
#include "report/writer.hpp"

namespace kforecast::cli {
namespace {

// Colour unless the user opted out (https://no-color.org) or the terminal cannot show it.
bool colour_allowed(const EnvLookup& env) {
  const auto no_color = env("NO_COLOR");
  const auto term = env("TERM");
  return (!no_color || no_color->empty()) && !(term && *term == "dumb");
}

}  // namespace

Result<ExitCode> write_report(const report::Report& report, const config::Config& config, const Invocation& invocation,
                              Context& context) {
  // The config's value was checked against the same choices when it was read. Markdown is for
  // PR comments and files; a person at a terminal gets the text view unless they chose a format.
  const bool to_terminal = context.out_is_terminal && !invocation.has("--output");
  const std::string format = invocation.has("--format") ? invocation.value("--format")
                             : to_terminal && config.setting("report.format").source == config::Source::default_value
                                 ? "text"
                                 : config.string_value("report.format");
  if (format != "md" && format != "json" && format != "sarif" && format != "text")
    return usage_error(fmt::format("--format {}: expected text, md, json or sarif", format));
  std::ofstream file;
  if (invocation.has("--output")) {
    file.open(invocation.value("--output"), std::ios::binary);
    if (!file) return fail(ExitCode::could_not_run, fmt::format("cannot write '{}'", invocation.value("--output")));
  }
  // A file leaves kforecast as much as standard output does: it passes the same redaction.
  RedactingStream redacted_file(file);
  std::ostream& out = file.is_open() ? redacted_file.stream() : context.out;
  const auto writer = format == "json"    ? report::make_json_writer(out)
                      : format == "sarif" ? report::make_sarif_writer(out)
                      : format == "text"  ? report::make_terminal_writer(out, to_terminal && colour_allowed(context.env))
                                          : report::make_markdown_writer(out);
  writer->write(report);
  return report.verdict == report::GateVerdict::fail ? ExitCode::gate_failed : ExitCode::pass;
}

Result<ExitCode> deliver_report(const report::Report& report, const config::Config& config,
                                const Invocation& invocation, Context& context) {
  auto written = write_report(report, config, invocation, context);
  if (!written) return written;
  // A gate that passed without judging every kernel says so where a CI log shows it, not only
  // in the report (which may go to a file or a comment).
  if (const std::size_t unjudged = report::unjudged_kernels(report); unjudged > 0)
    context.err << fmt::format(
        "kforecast: warning: {} kernel{} could not be judged (policy.on_unverified = {}): the report's notes say why\n",
        unjudged, unjudged == 1 ? "" : "s", config.string_value("policy.on_unverified"));
  // Where the whole report is when the summary must be cut to GitHub's limit.
  const std::string full_report = invocation.has("--output")
                                      ? fmt::format("{} (--output)", invocation.value("--output"))
                                      : std::string(report::full_report_elsewhere);
  if (auto step = report::write_step_report(report, context.env, full_report); !step)
    return std::unexpected(step.error());
  if (!invocation.has("--post")) return written;
  const auto transport = http::make_curl_transport({.proxies = http::proxy_settings_from(context.env)});
  if (auto posted = publish::post_report(report, context.env, *transport, context.err); !posted)
    return std::unexpected(posted.error());
  return written;
}

}  // namespace kforecast::cli
