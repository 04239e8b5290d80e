// SPDX-License-Identifier: Apache-2.0
#include "cli/report_output.hpp"

#include <fmt/format.h>

#include "base/output_file.hpp"
#include "http/curl_transport.hpp"
#include "publish/report_delivery.hpp"
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
  auto output = OutputFile::open(invocation.has("--output") ? std::optional(invocation.value("--output")) : std::nullopt,
                                 context.out);
  if (!output) return std::unexpected(output.error());
  std::ostream& out = (*output)->stream();
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
  const auto transport =
      invocation.has("--post") ? http::make_curl_transport({.proxies = http::proxy_settings_from(context.env)}) : nullptr;
  const publish::Delivery delivery{
      config.string_value("policy.on_unverified"),
      invocation.has("--output") ? fmt::format("{} (--output)", invocation.value("--output"))
                                 : std::string(report::full_report_elsewhere),
      transport.get()};
  if (auto delivered = publish::deliver_report(report, delivery, context.env, context.err); !delivered)
    return std::unexpected(delivered.error());
  return written;
}

}  // namespace kforecast::cli
