// SPDX-License-Identifier: Apache-2.0
// `kforecast bench FILE:KERNEL --vs FILE[:KERNEL] | --against REV`: measures one kernel pair.
// The measurement runs in a child process (this binary with --in-process) under
// bench.timeout_seconds, so a kernel that faults, hangs or exhausts memory becomes a `failed`
// result with its reason and this process goes on. A regression is measured again in a second
// fresh process before it is reported: a process can carry a bias of its own (bench/statistics.hpp).

#include <unistd.h>

#include <optional>
#include <string>
#include <iostream>

#include <fmt/format.h>

#include "bench/measurement_text.hpp"
#include "cli/gate_outside.hpp"
#include "cli/real_world.hpp"
#include "cli/command_progress.hpp"
#include "cli/handlers.hpp"
#include "cli/options.hpp"
#include "cli/shard_step.hpp"
#include "measure/bench_child.hpp"

namespace kforecast::cli {
namespace {

using bench::Measurement;
using bench::Verdict;

void print_text(std::ostream& out, const measure::BenchPair& pair, const Measurement& m) {
  const std::string reference = pair.against.empty() ? pair.versus
                                : fmt::format("{} at {}", pair.versus.empty() ? pair.candidate : pair.versus,
                                              pair.against);
  out << bench::measurement_text(m, pair.candidate, reference);
}

// A broken reference says nothing about the candidate: the comparison could not be made (3). Not
// for the measuring child, whose 3 tells the parent to read an error instead of its JSON
// (measure/bench_child.cpp); the JSON carries the blame.
enum class Process { parent, measuring_child };
ExitCode exit_code_for(const Measurement& m, Process process) {
  if (m.verdict == Verdict::failed && m.blame == bench::Blame::reference && process == Process::parent)
    return ExitCode::could_not_run;
  return m.verdict == Verdict::regression || m.verdict == Verdict::failed ? ExitCode::gate_failed : ExitCode::pass;
}

}  // namespace

Result<ExitCode> bench_command(const Invocation& invocation, Context& context) {
  if (invocation.has("--plan")) return bench_shard_command(invocation, context);
  if (invocation.positional.size() != 1)
    return usage_error(
        "'kforecast bench' takes one FILE:KERNEL (the candidate), e.g. kforecast bench src/gemm.cu:sgemm "
        "--against HEAD~1");
  const auto format = format_option(invocation, {"text", "json"});
  if (!format) return std::unexpected(format.error());
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  const measure::BenchPair pair{invocation.positional.front(), invocation.value("--vs"), invocation.value("--against"),
                             invocation.value("--project-build"), invocation.value("--capture")};
  auto options = measure::runner_options(*config);

  if (invocation.has("--confirming")) options.seeds = 1;  // a regression's confirmation (measure/bench_child.hpp)
  if (invocation.has("--repeat")) {
    const std::string text = invocation.value("--repeat");
    const auto count = whole_number<int>(text);
    if (!count || *count < 1 || *count > 10000)
      return usage_error(fmt::format("--repeat: '{}' is not a count from 1 to 10000", text));
    if (!invocation.has("--in-process") || *format != "json")
      return usage_error("--repeat needs --in-process and --format json (one JSON line per measurement)");
    options.repetitions = *count;
    options.each_repetition = [&](const Measurement& m) { context.out << bench::measurement_json(m) << "\n" << std::flush; };
  }

  Result<Measurement> measurement;
  // The measuring child of `pr` (--in-process, its standard error a pipe) shows no progress: its
  // parent does.
  std::optional<CommandProgress> progress;
  if (!invocation.has("--in-process") || context.err_is_terminal) progress.emplace(invocation, context);
  const auto stage = [&](const std::string& name) { if (progress) (*progress)->stage(name); };
  const auto detail = [&](std::string_view line) { if (progress) (*progress)->detail(line); };
  if (invocation.has("--in-process")) {
    if (progress) options.progress = detail;
    stage(fmt::format("measuring {}", pair.candidate));
    measurement = measure::measure_here(pair, *config, real_bench_world(*config, context.env), options);
  } else {
    if (auto checked = measure::prepare_pair(pair, *config, real_bench_world(*config, context.env)); !checked) return std::unexpected(checked.error().error);
    const double timeout = config->number_value("bench.timeout_seconds");
    stage(fmt::format("measuring {} in a child process (limit {:g} s)", pair.candidate, timeout));
    const measure::ChildRequest request{
        pair, invocation.has("--config") ? std::optional(invocation.value("--config")) : std::nullopt, "", timeout};
    measurement = measure::measure_confirmed(request, detail);
  }
  if (progress) (*progress)->finish();
  if (!measurement) return std::unexpected(measurement.error());
  // The user's own files are compiled and run whatever confines them here; the measuring child
  // (--in-process, pr's) leaves this to its parent.
  if (const std::string missing = this_machine_sandbox().missing(); !missing.empty() && !invocation.has("--in-process"))
    measurement->notes.push_back(
        fmt::format("not confined: the kernels were compiled without the whole sandbox ({})", missing));
  if (*format == "json")
    context.out << bench::measurement_json(*measurement) << "\n";
  else
    print_text(context.out, pair, *measurement);
  return exit_code_for(*measurement, invocation.has("--in-process") ? Process::measuring_child : Process::parent);
}

}  // namespace kforecast::cli
