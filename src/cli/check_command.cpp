// SPDX-License-Identifier: Apache-2.0
// `kforecast check FILE[:KERNEL] [--against REV | --vs FILE[:KERNEL]] [--bench]`: a spot-check of
// one kernel (or every kernel of FILE) in the work tree against an earlier revision or another
// file, through the gate `kforecast pr` runs (gate/run_gate.hpp): the identical-machine-code
// tier, the forecast, the policy, and with --bench the measurement on the local GPU. Unlike pr, a
// kernel that did not change is reported too (gate/check_pairs.hpp): that is an answer the user
// asked for.

#include <fmt/format.h>

#include "cli/command_progress.hpp"
#include "cli/gate_outside.hpp"
#include "cli/real_world.hpp"
#include "cli/handlers.hpp"
#include "cli/options.hpp"
#include "git/repository.hpp"
#include "gate/check_pairs.hpp"
#include "gate/check_sources.hpp"
#include "forecasters/llm_settings.hpp"
#include "gate/pr_bench.hpp"
#include "gate/run_gate.hpp"
#include "report/check_text.hpp"
#include "report/writer.hpp"

namespace kforecast::cli {
namespace {

Result<llm::PromptSet> check_prompts(const config::Config& config, const gate::CheckSources& sources) {
  if (sources.repository) return forecasters::configured_prompts(config, *sources.repository, "");
  const std::string directory = config.string_value("forecast.prompts");
  if (directory.empty()) return llm::builtin_prompts();
  return llm::load_prompts(sources.root / directory);
}

}  // namespace

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
  auto llm = use_llm_forecaster(invocation, *config);
  if (!llm) return std::unexpected(llm.error());
  const bool bench = invocation.has("--bench");
  // Said before any work: --bench is a request to measure, and it cannot be honoured here.
  if (bench)
    if (auto why = real_gpu(*config).unavailable())
      return fail(ExitCode::could_not_run,
                  fmt::format("--bench needs a GPU to measure on: {}; run without --bench for the forecast alone, or "
                              "on a machine with an NVIDIA GPU and its driver",
                              *why));

  auto target = gate::parse_check_target(invocation.positional.front());
  if (!target) return std::unexpected(target.error());
  const std::string against = invocation.has("--vs")        ? ""
                              : invocation.has("--against") ? invocation.value("--against")
                                                            : "HEAD";
  auto sources = gate::read_check_sources(
      {*target, against, invocation.value("--vs"), [](const std::filesystem::path& folder) { return git::open_repository(folder); }});
  if (!sources) return std::unexpected(sources.error());
  std::optional<llm::PromptSet> prompts;
  if (*llm) {
    if (auto checked = forecasters::check_llm_settings(*config, context.env, real_llm_world(*config, context.env)); !checked) return std::unexpected(checked.error());
    auto loaded = check_prompts(*config, *sources);
    if (!loaded) return std::unexpected(loaded.error());
    prompts = std::move(*loaded);
  }

  const kernels::RevisionSources base(sources->base_files);
  const kernels::RevisionSources head(sources->head_files);
  auto analysis = gate::pairs_to_check(base, head, *sources, *target, against);
  if (!analysis) return std::unexpected(analysis.error());

  CommandProgress progress(invocation, context);
  const gate::Settings settings = gate::read_settings(*config, sources->root);
  RealOutside real(*config, context);
  gate::Outside& outside = real.outside();
  auto result = gate::run_gate(
      {sources->base_label, sources->head_label, fmt::format("compared: {}", sources->origin), base, head, *analysis,
       std::move(prompts), {}, git::change_author(context.env),
       {!bench, "check measures only with --bench: add it to measure on this machine's GPU", "--bench not given"},
       true, bench},
      settings, outside);
  progress->finish();
  if (!result) return std::unexpected(result.error());
  const report::Report report = gate::build_report(result->run);
  if (*format == "json")
    report::make_json_writer(context.out)->write(report);
  else
    report::write_check_text(context.out, report);
  return report.verdict == report::GateVerdict::fail ? ExitCode::gate_failed : ExitCode::pass;
}

}  // namespace kforecast::cli
