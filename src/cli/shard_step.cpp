// SPDX-License-Identifier: Apache-2.0
#include "cli/shard_step.hpp"

#include <charconv>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "base/redaction.hpp"
#include "base/text_file.hpp"
#include "cli/gate_outside.hpp"
#include "gate/plan_file.hpp"
#include "gate/pr_bench.hpp"
#include "gate/settings.hpp"
#include "gate/shard_results.hpp"
#include "config/config.hpp"
#include "kforecast_version.hpp"

namespace kforecast::cli {
namespace {

Result<std::pair<std::size_t, std::size_t>> parse_shard(std::string_view text) {
  const auto slash = text.find('/');
  std::size_t index = 0, count = 0;
  const auto number = [](std::string_view part, std::size_t& value) {
    const auto [end, error] = std::from_chars(part.data(), part.data() + part.size(), value);
    return error == std::errc{} && end == part.data() + part.size() && !part.empty();
  };
  if (slash == std::string_view::npos || !number(text.substr(0, slash), index) ||
      !number(text.substr(slash + 1), count) || count == 0 || index == 0 || index > count || count > 10000)
    return usage_error(fmt::format("--shard {}: expected I/N with 1 <= I <= N, e.g. --shard 1/2", text));
  return std::pair{index, count};
}

}  // namespace

Result<ExitCode> bench_shard_command(const Invocation& invocation, Context& context) {
  if (!invocation.positional.empty() || invocation.has("--vs") || invocation.has("--against"))
    return usage_error(
        "'kforecast bench --plan PLAN --shard I/N' takes no FILE:KERNEL, --vs or --against: the "
        "kernels come from the plan");
  if (!invocation.has("--shard")) return usage_error("--plan needs --shard I/N (e.g. --shard 1/1 for all of it)");
  auto shard = parse_shard(invocation.value("--shard"));
  if (!shard) return std::unexpected(shard.error());
  const std::string plan_path = invocation.value("--plan");
  auto text = read_text_file(plan_path, "plan");
  if (!text) return std::unexpected(text.error());
  auto plan = gate::parse_plan_json(*text, plan_path);
  if (!plan) return std::unexpected(plan.error());
  auto config = gate::plan_config(*plan, context.env);
  if (!config) return std::unexpected(config.error());

  gate::ShardResults results;
  results.kforecast_version = std::string(kforecast::version);
  results.plan_hash = gate::plan_hash(*text);
  results.shard = shard->first;
  results.shards = shard->second;
  results.started = gate::utc_timestamp();
  const auto jobs = gate::shard_jobs(*plan, shard->first, shard->second);
  // The shard's own copy of the report: measure_jobs_in_pr decides on it as pr would; only the
  // outcomes are kept, and report --merge decides again over every shard's.
  gate::GateRun scratch = gate::run_of(plan->report);
  std::map<std::size_t, gate::KernelResult> outcomes;
  const gate::MeasureObserver observe = [&](std::size_t entry, const Result<bench::Measurement>& outcome) {
    gate::KernelResult result{entry, std::nullopt, ""};
    if (outcome) {
      result.measurement = *outcome;
      if (results.gpu.empty()) results.gpu = outcome->gpu, results.driver = outcome->driver;
    } else {
      result.unmeasured_reason = outcome.error().message;
    }
    outcomes[entry] = std::move(result);
  };
  // policy.ledger, relative to this job's working directory (the checkout's root).
  const std::filesystem::path ledger = config->string_value("policy.ledger");
  const gate::Settings settings = gate::read_settings(*config, {});
  gate::Outside outside = real_outside(*config, context);
  gate::measure_jobs_in_pr(scratch, jobs, ledger, {plan->no_bench}, settings, outside, observe);
  if (scratch.gpu_time) results.note = scratch.gpu_time->note;
  for (const auto& job : jobs) {
    auto found = outcomes.find(job.entry);
    if (found != outcomes.end()) {
      results.kernels.push_back(std::move(found->second));
      continue;
    }
    // measure_kernels passed it over: this shard's share of policy.gpu_budget_seconds was spent.
    results.kernels.push_back(
        {job.entry, std::nullopt,
         fmt::format("the GPU budget is spent on shard {}/{} (policy.gpu_budget_seconds = {:g}; "
                     "riskier kernels were measured first)",
                     shard->first, shard->second, settings.measure.budget_seconds)});
  }
  results.finished = gate::utc_timestamp();

  const std::string json = redact_secrets(gate::results_json(results));
  if (invocation.has("--output")) {
    std::ofstream out(invocation.value("--output"), std::ios::binary);
    if (!out || !(out << json) || !out.flush())
      return fail(ExitCode::could_not_run, fmt::format("cannot write '{}'", invocation.value("--output")));
  } else {
    context.out << json;
  }
  std::size_t measured = 0;
  for (const auto& kernel : results.kernels) measured += kernel.measurement ? 1 : 0;
  context.err << fmt::format("kforecast: shard {}/{}: {} kernel{}, {} measured{}\n", shard->first, shard->second,
                             results.kernels.size(), results.kernels.size() == 1 ? "" : "s", measured,
                             results.note.empty() ? "" : " (" + results.note + ")");
  return ExitCode::pass;
}

}  // namespace kforecast::cli
