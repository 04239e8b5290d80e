// SPDX-License-Identifier: Apache-2.0
// `kforecast check FILE[:KERNEL] [--against REV | --vs FILE[:KERNEL]] [--bench]`: a spot-check of
// one kernel (or every kernel of FILE) in the work tree against an earlier revision or another
// file, through the gate `kforecast pr` runs (gate/run_gate.hpp): the identical-machine-code
// tier, the forecast, the policy, and with --bench the measurement on the local GPU. Unlike pr, a
// kernel that did not change is reported too (gate/check_pairs.hpp): that is an answer the user
// asked for.

#include <fmt/format.h>

#include "cli/check_gate.hpp"
#include "cli/handlers.hpp"
#include "cli/options.hpp"
#include "cli/real_world.hpp"
#include "report/check_text.hpp"
#include "report/writer.hpp"

namespace kforecast::cli {

Result<ExitCode> check_command(const Invocation& invocation, Context& context) {
  if (invocation.positional.size() != 1)
    return usage_error(
        "'kforecast check' takes one FILE[:KERNEL], e.g. kforecast check src/gemm.cu:sgemm --against HEAD~1");
  if (invocation.has("--against") && invocation.has("--vs"))
    return usage_error(
        "--against and --vs both name what to compare with: give one (--against REV: this file at a revision, "
        "default HEAD; --vs FILE[:KERNEL]: another file)");
  const auto format = format_option(invocation, {"text", "json"});
  if (!format) return std::unexpected(format.error());
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  const bool bench = invocation.has("--bench");
  // Said before any work: --bench is a request to measure, and it cannot be honoured here.
  if (bench)
    if (auto why = real_gpu(*config).unavailable())
      return fail(ExitCode::could_not_run,
                  fmt::format("--bench needs a GPU to measure on: {}; run without --bench for the forecast alone, or "
                              "on a machine with an NVIDIA GPU and its driver",
                              *why));
  const std::string against = invocation.has("--vs")        ? ""
                              : invocation.has("--against") ? invocation.value("--against")
                                                            : "HEAD";
  auto report = run_check_gate(
      {invocation.positional.front(), against, invocation.value("--vs"),
       {!bench, "check measures only with --bench: add it to measure on this machine's GPU", "--bench not given"},
       bench,
       {}},
      *config, invocation, context);
  if (!report) return std::unexpected(report.error());
  if (*format == "json")
    report::make_json_writer(context.out)->write(*report);
  else
    report::write_check_text(context.out, *report);
  return report->verdict == report::GateVerdict::fail ? ExitCode::gate_failed : ExitCode::pass;
}

}  // namespace kforecast::cli
