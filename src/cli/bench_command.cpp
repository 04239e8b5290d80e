// SPDX-License-Identifier: Apache-2.0
// `kforecast bench FILE:KERNEL --vs FILE[:KERNEL] | --against REV`: measures one kernel pair.
// The measurement runs in a child process (this binary with --in-process) under
// bench.timeout_seconds, so a kernel that faults, hangs or exhausts memory becomes a `failed`
// result with its reason and this process goes on. A regression is measured again in a second
// fresh process before it is reported (BENCHMARKING.md, step 9).

#include <unistd.h>

#include <charconv>
#include <iostream>

#include <fmt/format.h>

#include "cli/handlers.hpp"
#include "cli/shard_step.hpp"
#include "gate/bench_child.hpp"

namespace kforecast::cli {
namespace {

using bench::Measurement;
using bench::Verdict;

std::string interval_text(const Measurement& m) {
  if (!(m.interval.speedup > 0)) return "not measured";
  return fmt::format("{:.4f}x  [{:.4f}, {:.4f}] at {:g}% confidence, {} rounds (tolerance {:g}%)", m.interval.speedup,
                     m.interval.low, m.interval.high, m.confidence * 100, m.interval.rounds, m.tolerance * 100);
}

void print_text(std::ostream& out, const gate::BenchPair& pair, const Measurement& m) {
  const std::string reference =
      pair.versus.empty() ? fmt::format("{} at {}", pair.candidate, pair.against) : pair.versus;
  out << fmt::format("kforecast bench: {} (candidate) vs {} (reference)\n", pair.candidate, reference);
  out << fmt::format("  {:<10} {}\n", "verdict", bench::verdict_name(m.verdict));
  if (!m.reason.empty()) out << fmt::format("  {:<10} {}\n", "reason", m.reason);
  out << fmt::format("  {:<10} {}\n", "speedup", interval_text(m));
  if (m.t_base_us > 0)
    out << fmt::format("  {:<10} reference {:.3f} us, candidate {:.3f} us per launch (median; L2 flushed)\n", "time",
                       m.t_base_us, m.t_head_us);
  for (const auto& size : m.sizes)
    out << fmt::format("  {:<10} {}: {} {:.4f}x [{:.4f}, {:.4f}], {} rounds, {} launches per sample\n", "size",
                       size.size, bench::verdict_name(size.verdict), size.interval.speedup, size.interval.low,
                       size.interval.high, size.round_log_speedups.size(), size.batch);
  if (!m.gpu.empty()) out << fmt::format("  {:<10} {}, driver {}\n", "gpu", m.gpu, m.driver);
  if (m.sm_clock_median_mhz > 0)
    out << fmt::format("  {:<10} SM {} MHz median, {} MHz lowest block; throttle reasons 0x{:x}\n", "clocks",
                       m.sm_clock_median_mhz, m.sm_clock_min_mhz, m.throttle_reasons);
  out << fmt::format("  {:<10} {:.2f} s{}\n", "gpu time", m.gpu_seconds,
                     m.regression_checks > 1 ? " (regression re-measured in a fresh process)" : "");
  for (const auto& note : m.notes) out << fmt::format("  {:<10} {}\n", "note", note);
}

ExitCode exit_code_for(const Measurement& m) {
  return m.verdict == Verdict::regression || m.verdict == Verdict::failed ? ExitCode::gate_failed : ExitCode::pass;
}

}  // namespace

Result<ExitCode> bench_command(const Invocation& invocation, Context& context) {
  if (invocation.has("--plan")) return bench_shard_command(invocation, context);
  if (invocation.positional.size() != 1)
    return usage_error(
        "'kforecast bench' takes one FILE:KERNEL (the candidate), e.g. kforecast bench src/gemm.cu:sgemm "
        "--against HEAD~1");
  const std::string format = invocation.has("--format") ? invocation.value("--format") : "text";
  if (format != "text" && format != "json")
    return usage_error(fmt::format("--format: '{}' is not text or json", format));
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  const gate::BenchPair pair{invocation.positional.front(), invocation.value("--vs"), invocation.value("--against"),
                             invocation.value("--project-build"), invocation.value("--capture")};
  auto options = gate::runner_options(*config);
  const bool terminal = context.err_is_terminal;

  if (invocation.has("--confirming")) options.seeds = 1;  // a regression's confirmation (gate/bench_child.hpp)
  if (invocation.has("--repeat")) {
    const std::string text = invocation.value("--repeat");
    int count = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), count);
    if (error != std::errc() || end != text.data() + text.size() || count < 1 || count > 10000)
      return usage_error(fmt::format("--repeat: '{}' is not a count from 1 to 10000", text));
    if (!invocation.has("--in-process") || format != "json")
      return usage_error("--repeat needs --in-process and --format json (one JSON line per measurement)");
    options.repetitions = count;
    options.each_repetition = [&](const Measurement& m) { context.out << bench::measurement_json(m) << "\n" << std::flush; };
  }

  Result<Measurement> measurement;
  if (invocation.has("--in-process")) {
    if (terminal) options.progress = [&](std::string_view line) { context.err << "\r\033[K" << line << std::flush; };
    measurement = gate::measure_here(pair, *config, context.env, options);
    if (terminal) context.err << "\r\033[K" << std::flush;
  } else {
    if (auto checked = gate::prepare_pair(pair, *config, context.env); !checked) return std::unexpected(checked.error().error);
    const double timeout = config->number_value("bench.timeout_seconds");
    if (terminal)
      context.err << fmt::format("measuring {} in a child process (limit {:g} s)...", pair.candidate, timeout)
                  << std::flush;
    const gate::ChildRequest request{
        pair, invocation.has("--config") ? std::optional(invocation.value("--config")) : std::nullopt, "", timeout};
    measurement = gate::measure_confirmed(request, [&](std::string_view line) {
      if (terminal) context.err << "\r\033[K" << line << std::flush;
    });
    if (terminal) context.err << "\r\033[K" << std::flush;
  }
  if (!measurement) return std::unexpected(measurement.error());
  if (format == "json")
    context.out << bench::measurement_json(*measurement) << "\n";
  else
    print_text(context.out, pair, *measurement);
  return exit_code_for(*measurement);
}

}  // namespace kforecast::cli
