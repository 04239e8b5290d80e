// SPDX-License-Identifier: Apache-2.0
#include "cli/plan_step.hpp"

#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "base/redaction.hpp"
#include "cli/measure_step.hpp"
#include "cli/plan_file.hpp"
#include "kforecast_version.hpp"

namespace kforecast::cli {
namespace {

Result<void> write_file(const std::string& path, std::string_view text, std::ios::openmode mode,
                        std::string_view what) {
  std::ofstream out(path, std::ios::binary | mode);
  if (!out || !(out << redact_secrets(text)) || !out.flush())
    return fail(ExitCode::could_not_run, fmt::format("cannot write {} ({})", what, path));
  return {};
}

std::string matrix(std::size_t shards) {
  std::string list;
  for (std::size_t i = 1; i <= shards; ++i) list += fmt::format("{}\"{}/{}\"", i > 1 ? "," : "", i, shards);
  return fmt::format("{{\"shard\":[{}]}}", list);
}

}  // namespace

std::size_t suggested_shards(std::size_t kernels) { return std::min<std::size_t>(kernels, 4); }

Result<ExitCode> write_plan(const report::Report& report, std::span<const std::size_t> to_measure,
                            const PrBenchInputs& inputs, const config::Config& config, const std::string& path,
                            Context& context) {
  Plan plan;
  plan.kforecast_version = std::string(kforecast::version);
  plan.config_name =
      config.file() ? config.file()->string() : fmt::format("{}:.kforecast.toml", report.base.substr(0, 12));
  plan.config_text = config.source_text();
  plan.ledger = inputs.ledger.string();
  plan.no_bench = inputs.no_bench.set;
  plan.report = report;
  plan.to_measure.assign(to_measure.begin(), to_measure.end());
  // Riskiest first, as pr measures them, so shard k/n gets every n-th from the riskiest down.
  const auto order = measurement_order(report, to_measure);
  plan.jobs = measure_jobs(order, inputs.analysis, inputs.base, inputs.head);
  plan.shards = suggested_shards(plan.jobs.size());

  if (auto written = write_file(path, plan_json(plan), std::ios::trunc, "the plan"); !written)
    return std::unexpected(written.error());
  const bool failed = report.verdict == report::GateVerdict::fail;
  if (auto output = context.env("GITHUB_OUTPUT"); output && !output->empty()) {
    const auto lines =
        fmt::format("needs_gpu={}\nshards={}\nmatrix={}\nverdict_so_far={}\n", plan.jobs.empty() ? "false" : "true",
                    plan.shards, matrix(plan.shards), failed ? "fail" : "pending");
    if (auto appended = write_file(*output, lines, std::ios::app, "the step outputs"); !appended)
      return std::unexpected(appended.error());
  }
  context.err << fmt::format(
      "kforecast: plan written to {}: {} kernel{} need{} a GPU{}{}\n", path, plan.jobs.size(),
      plan.jobs.size() == 1 ? "" : "s", plan.jobs.size() == 1 ? "s" : "",
      plan.jobs.empty() ? "" : fmt::format(" (suggested: {} shard{})", plan.shards, plan.shards == 1 ? "" : "s"),
      failed ? "; the gate has already failed (see report --merge)" : "");
  return ExitCode::pass;
}

}  // namespace kforecast::cli
