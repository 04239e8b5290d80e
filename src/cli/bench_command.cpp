// SPDX-License-Identifier: Apache-2.0
// `kforecast bench FILE:KERNEL --vs FILE[:KERNEL] | --against REV`: measures one kernel pair.
// The measurement runs in a child process (this binary with --in-process) under
// bench.timeout_seconds, so a kernel that faults, hangs or exhausts memory becomes a `failed`
// result with its reason and this process goes on. A regression is measured again in a second
// fresh process before it is reported: a process can carry a bias of its own (bench/statistics.hpp).

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <mutex>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "bench/measurement_text.hpp"
#include "cli/gate_outside.hpp"
#include "cli/real_world.hpp"
#include "base/json_string.hpp"
#include "cli/check_gate.hpp"
#include "cli/command_progress.hpp"
#include "cli/handlers.hpp"
#include "cli/options.hpp"
#include "gate/check_sources.hpp"
#include "cli/shard_step.hpp"
#include "base/text_file.hpp"
#include "measure/batch_here.hpp"
#include "measure/bench_child.hpp"
#include "report/entry_text.hpp"

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

// The answer where the gate measured nothing for the kernel: its machine code is identical (or its
// source reads the same), it failed unmeasured (it no longer compiles), or it could not be
// measured; the report's entry says which, in the words every report uses.
Result<ExitCode> not_measured(const report::Report& report, const std::string& target, const std::string& format,
                              Context& context) {
  if (report.kernels.empty())
    return fail(ExitCode::could_not_run, fmt::format("{}: no kernel to measure ({})", target,
                                                     report.notes.empty() ? "nothing compared" : report.notes.back()));
  const report::KernelEntry& entry = report.kernels.front();
  const std::string where = entry.file + ":" + entry.name;
  if (entry.decision == report::Decision::identical_code) {
    const auto said = std::ranges::find_if(entry.notes, [](const std::string& note) {
      return note.starts_with("machine code identical") || note.find("read the same") != std::string::npos;
    });
    const std::string why = said == entry.notes.end() ? "identical machine code at both sides" : *said;
    if (format == "json")
      context.out << fmt::format("{{\"measured\": false, \"decision\": \"identical_code\", \"reason\": {}}}\n",
                                 json_string(why));
    else
      context.out << fmt::format("{}: nothing to measure: {}{}\n", where, why,
                                 entry.build.empty() ? "" : fmt::format(" (built by {})", entry.build));
    return ExitCode::pass;
  }
  std::string why = report::verdict_reason(entry);
  if (why.empty()) why = "not measured";
  if (entry.verdict == report::KernelVerdict::fail) {
    context.out << fmt::format("{}: failed: {}\n", where, why);
    return ExitCode::gate_failed;
  }
  return fail(ExitCode::could_not_run, fmt::format("{}: {}", where, why));
}

// The candidate against its own file at a revision (or, with --vs, the file it had there): built,
// compared and measured through the gate, as `kforecast pr` builds and measures it
// (cli/check_gate.hpp).
Result<ExitCode> bench_through_gate(const Invocation& invocation, Context& context, const config::Config& config,
                                    const measure::BenchPair& pair, const std::string& format) {
  // What is wrong with the pair itself (a missing file, a kernel misnamed) is said before the GPU
  // is looked for; a missing launch spec is the gate's to answer (captures, capture.command).
  if (auto checked = measure::prepare_pair(pair, config, real_bench_world(config, context.env));
      !checked && checked.error().kind != measure::PairProblem::Kind::no_launch_spec)
    return std::unexpected(checked.error().error);
  if (auto why = real_gpu(config).unavailable())
    return fail(ExitCode::could_not_run, fmt::format("bench needs a GPU to measure on: {}; `kforecast check {}{}` "
                                                     "gives the forecast without one",
                                                     *why, pair.candidate,
                                                     pair.against.empty() ? "" : " --against " + pair.against));
  auto target = gate::parse_check_target(pair.candidate);
  if (!target) return std::unexpected(target.error());
  if (target->kernel.empty())
    return usage_error(fmt::format("'kforecast bench {}': name the kernel to measure, FILE:KERNEL", pair.candidate));
  std::optional<Result<bench::Measurement>> measured;
  auto report = run_check_gate(
      {pair.candidate, pair.against, pair.versus, {}, true,
       [&](std::size_t, const Result<bench::Measurement>& outcome) { measured = outcome; }},
      config, invocation, context);
  if (!report) return std::unexpected(report.error());
  if (!measured) return not_measured(*report, pair.candidate, format, context);
  if (!*measured) return std::unexpected(measured->error());
  bench::Measurement& measurement = **measured;
  if (const std::string missing = this_machine_sandbox().missing(); !missing.empty())
    measurement.notes.push_back(
        fmt::format("not confined: the kernels were compiled without the whole sandbox ({})", missing));
  if (format == "json")
    context.out << bench::measurement_json(measurement) << "\n";
  else
    print_text(context.out, pair, measurement);
  return exit_code_for(measurement, Process::parent);
}

// `bench --in-process --batch FILE --results FILE`: the measuring child of pr's batch
// (measure/batch_here.hpp). Each pair's result is appended to the results file as it finishes;
// exit 1 where the batch stopped after a failed pair, so the parent starts a fresh process for the rest.
Result<ExitCode> bench_batch_command(const Invocation& invocation, Context& context, const config::Config& config,
                                     const bench::RunnerOptions& runner) {
  if (!invocation.has("--in-process") || !invocation.has("--results"))
    return usage_error("--batch needs --in-process and --results FILE (it is the measuring child of 'kforecast pr')");
  if (!invocation.positional.empty())
    return usage_error("'kforecast bench --batch FILE' takes the pairs from FILE, not from the command line");
  auto text = read_text_file(invocation.value("--batch"), "the batch file");
  if (!text) return std::unexpected(text.error());
  auto pairs = measure::parse_batch_file(*text);
  if (!pairs) return std::unexpected(pairs.error());
  measure::BatchOptions options{runner, invocation.value("--builds"), 0,
                                config.number_value("bench.timeout_seconds"), 0};
  if (invocation.has("--budget")) {
    const std::string budget = invocation.value("--budget");
    char* end = nullptr;
    options.budget_seconds = std::strtod(budget.c_str(), &end);
    if (end == budget.c_str() || *end != '\0' || !(options.budget_seconds >= 0))
      return usage_error(fmt::format("--budget: '{}' is not a number of seconds", budget));
  }
  std::ofstream results(invocation.value("--results"), std::ios::app);
  if (!results) return usage_error(fmt::format("--results: cannot write {}", invocation.value("--results")));
  std::mutex writing;
  const auto emit = [&](const measure::BatchResult& result) {
    const std::scoped_lock lock(writing);
    results << measure::batch_result_line(result) << "\n" << std::flush;
  };
  const auto on_hang = [&](const measure::BatchResult& result) {
    emit(result);
    // The measuring thread is stuck in the driver; only ending the process frees the GPU.
    std::_Exit(static_cast<int>(ExitCode::gate_failed));
  };
  auto end = measure::measure_batch_here(*pairs, config, real_bench_world(config, context.env), options, emit, on_hang);
  if (!end) return std::unexpected(end.error());
  return *end == measure::BatchEnd::finished ? ExitCode::pass : ExitCode::gate_failed;
}

}  // namespace

Result<ExitCode> bench_command(const Invocation& invocation, Context& context) {
  if (invocation.has("--plan")) return bench_shard_command(invocation, context);
  if (invocation.positional.size() != 1 && !invocation.has("--batch"))
    return usage_error(
        "'kforecast bench' takes one FILE:KERNEL (the candidate), e.g. kforecast bench src/gemm.cu:sgemm "
        "--against HEAD~1");
  const auto format = format_option(invocation, {"text", "json"});
  if (!format) return std::unexpected(format.error());
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  auto options = measure::runner_options(*config);

  if (invocation.has("--confirming")) options.seeds = 1;  // a regression's confirmation (measure/bench_child.hpp)
  if (invocation.has("--extended")) {  // a borderline's third measurement (measure/bench_child.hpp)
    options.max_rounds *= 4;
    options.max_gpu_seconds *= 2;
  }
  if (invocation.has("--batch")) return bench_batch_command(invocation, context, *config, options);
  const measure::BenchPair pair{invocation.positional.front(), invocation.value("--vs"), invocation.value("--against"),
                                invocation.value("--project-build"), invocation.value("--capture")};
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
  // Against a revision (what a report tells a user to run) bench goes through the gate, so it
  // measures the build pr measures. Two files named with --vs alone are measured as given (an
  // A/A study, an instantiation named by hand), as are the measuring child and a pair given its
  // build or its captures; their output says which build each side is.
  if (!invocation.has("--in-process") && pair.project_build.empty() && pair.capture.empty() && !pair.against.empty())
    return bench_through_gate(invocation, context, *config, pair, *format);
  if (invocation.has("--in-process")) {
    if (progress) options.progress = detail;
    // --timings: the runner's steps too, each with the milliseconds since the one before.
    std::string steps;
    if (invocation.has("--timings")) {
      options.progress = [&, last = std::chrono::steady_clock::now()](std::string_view line) mutable {
        const auto now = std::chrono::steady_clock::now();
        steps += fmt::format("kforecast: timings: +{:.1f} ms: {}\n",
                             std::chrono::duration<double, std::milli>(now - last).count(), line);
        last = now;
        detail(line);
      };
    }
    stage(fmt::format("measuring {}", pair.candidate));
    std::string timings;
    measurement = measure::measure_here(pair, *config, real_bench_world(*config, context.env), options,
                                        invocation.value("--builds"), &timings);
    if (invocation.has("--timings")) context.err << steps << "kforecast: timings: " << timings << "\n";
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
