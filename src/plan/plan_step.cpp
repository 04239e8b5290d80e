// SPDX-License-Identifier: Apache-2.0
#include "plan/plan_step.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "base/redaction.hpp"
#include "gate/measure_step.hpp"
#include "plan/plan_file.hpp"
#include "kforecast_version.hpp"
#include "report/step_files.hpp"
#include "report/writer.hpp"

namespace kforecast::plan {
namespace {

Result<void> write_plan_file(const std::string& path, std::string_view text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out || !(out << redact_secrets(text)) || !out.flush())
    return fail(ExitCode::could_not_run, fmt::format("cannot write the plan ({})", path));
  return {};
}

std::string matrix(std::size_t shards) {
  std::string list;
  for (std::size_t i = 1; i <= shards; ++i) list += fmt::format("{}\"{}/{}\"", i > 1 ? "," : "", i, shards);
  return fmt::format("{{\"shard\":[{}]}}", list);
}

// The step summary of a plan: what the GPU jobs will measure and who gives the verdict, then the
// report as the policy left it, folded (its verdict is not the gate's yet).
std::string plan_summary(const Plan& plan, bool failed) {
  std::ostringstream markdown;
  report::make_markdown_writer(markdown)->write(plan.report);
  const std::size_t kernels = plan.jobs.size();
  return fmt::format(
      "## kforecast plan: {} kernel{} need{} a GPU\n\n{}Verdict so far: {}.\n\n<details><summary>The report before any "
      "measurement</summary>\n\n{}\n</details>\n\n",
      kernels, kernels == 1 ? "" : "s", kernels == 1 ? "s" : "",
      kernels == 0 ? "`kforecast report --merge` gives the report and the verdict. "
                   : fmt::format("GPU jobs measure {} (suggested: {} shard{}); `kforecast report --merge` then "
                                 "gives the report and the verdict. ",
                                 kernels == 1 ? "it" : "them", plan.shards, plan.shards == 1 ? "" : "s"),
      failed ? "fail (a kernel has already failed)" : "pending", markdown.str());
}

}  // namespace

std::size_t suggested_shards(std::size_t kernels) { return std::min<std::size_t>(kernels, 4); }

Result<ExitCode> write_plan(const gate::GateRun& run, std::span<const std::size_t> to_measure,
                            const gate::PrBenchInputs& inputs, const config::Config& config, const std::string& path,
                            const EnvLookup& env, std::ostream& err) {
  const report::Report report = gate::build_report(run);
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
  const auto order = gate::measurement_order(run.cases, to_measure);
  plan.jobs = gate::measure_jobs(order, inputs.base, inputs.head, run.cases);
  plan.shards = suggested_shards(plan.jobs.size());

  const std::string text = plan_json(plan);
  if (auto written = write_plan_file(path, text); !written) return std::unexpected(written.error());
  if (const std::size_t limit = PlanLimits{}.max_bytes; text.size() > limit)
    err << fmt::format(
        "kforecast: warning: the plan is {} bytes, more than the {} MiB the jobs that read it accept unless their "
        "config raises security.max_plan_mib (or KFORECAST_MAX_PLAN_MIB)\n",
        text.size(), limit >> 20);
  const bool failed = report.verdict == report::GateVerdict::fail;
  const std::string full_report = fmt::format("the plan, {}, and the report `kforecast report --merge` writes", path);
  if (auto summary = report::append_step_summary(env, plan_summary(plan, failed), full_report); !summary)
    return std::unexpected(summary.error());
  const auto lines =
      fmt::format("needs_gpu={}\nshards={}\nmatrix={}\nverdict_so_far={}\n", plan.jobs.empty() ? "false" : "true",
                  plan.shards, matrix(plan.shards), failed ? "fail" : "pending");
  if (auto outputs = report::append_step_file(env, "GITHUB_OUTPUT", lines); !outputs)
    return std::unexpected(outputs.error());
  err << fmt::format(
      "kforecast: plan written to {}: {} kernel{} need{} a GPU{}{}\n", path, plan.jobs.size(),
      plan.jobs.size() == 1 ? "" : "s", plan.jobs.size() == 1 ? "s" : "",
      plan.jobs.empty() ? "" : fmt::format(" (suggested: {} shard{})", plan.shards, plan.shards == 1 ? "" : "s"),
      failed ? "; the gate has already failed (see report --merge)" : "");
  return ExitCode::pass;
}

}  // namespace kforecast::plan
