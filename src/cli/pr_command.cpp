// SPDX-License-Identifier: Apache-2.0
// `kforecast pr`: the gate over a revision range. It finds the changed kernels, settles those
// whose machine code did not change, forecasts the rest, lets the policy trust a sure forecast,
// and measures the others on the local GPU (gate/pr_bench.hpp); what cannot be measured is
// unverified.

#include <fstream>
#include <future>
#include <iostream>

#include <fmt/format.h>

#include "cli/command_progress.hpp"
#include "cli/gate_outside.hpp"
#include "cli/real_world.hpp"
#include "cli/handlers.hpp"
#include "cli/report_output.hpp"
#include "config/config.hpp"
#include "change/change_reading.hpp"
#include "forecasters/llm_settings.hpp"
#include "plan/plan_step.hpp"
#include "gate/run_gate.hpp"
#include "git/change_author.hpp"
#include "git/revision_range.hpp"

namespace kforecast::cli {
namespace {

// In PR mode the config comes from the base revision, so a pull request cannot loosen its own
// gate; --config names another file explicitly.
Result<config::Config> config_at_base(const Invocation& invocation, const Context& context,
                                      const std::optional<std::string>& base_text, const std::string& base) {
  if (invocation.has("--config"))
    return with_secrets_registered(config::load_config(invocation.value("--config"), context.env));
  if (!base_text) return with_secrets_registered(config::apply_environment(config::Config{}, context.env));
  auto parsed = config::parse_config(*base_text, fmt::format("{}:.kforecast.toml", base.substr(0, 12)));
  if (!parsed) return std::unexpected(parsed.error());
  return with_secrets_registered(config::apply_environment(std::move(*parsed), context.env));
}

}  // namespace

Result<ExitCode> pr_command(const Invocation& invocation, Context& context) {
  if (invocation.has("--plan") && invocation.has("--post"))
    return usage_error("--plan writes a plan, not a report: give --post to 'kforecast report --merge' instead");
  if (!invocation.positional.empty()) return usage_error("'kforecast pr' takes no arguments; see 'kforecast help pr'");
  CommandProgress progress(invocation, context);
  progress->stage("reading the revisions");

  auto repository = git::open_repository(repo_directory(invocation));
  if (!repository) return std::unexpected(repository.error());
  const git::Repository& repo = **repository;

  change::ChangeRequest request;
  if (invocation.has("--diff")) {
    const std::string path = invocation.value("--diff");
    std::ifstream file;
    if (path != "-") file.open(path, std::ios::binary);
    if (path != "-" && !file) return usage_error(fmt::format("--diff: cannot read '{}'", path));
    std::istream& in = path == "-" ? std::cin : file;
    request.patch.emplace(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  request.staged = invocation.has("--staged");
  if (invocation.has("--base")) request.range.base = invocation.value("--base");
  if (invocation.has("--head")) request.range.head = invocation.value("--head");
  auto change = change::read_change(repo, request, context.env);
  if (!change) return std::unexpected(change.error());
  change::PrSources& sources = change->sources;
  const std::string& base = change->base;
  // A patch has no base revision to read the config from: the work tree's config applies.
  auto config = invocation.has("--diff") ? load_command_config(invocation, context)
                                         : config_at_base(invocation, context, sources.base_config, base);
  if (!config) return std::unexpected(config.error());
  const std::filesystem::path repository_root = repo.root();
  const gate::Settings settings = gate::read_settings(*config, repository_root);
  // Submodules after the config: whether to fetch them is the base's choice, not the pull request's.
  const auto fetcher = real_submodule_fetcher(*config, context.env, sources.notes);
  change::add_submodule_sources(repo, sources, fetcher ? &*fetcher : nullptr);
  // A file over the limit is read once (git gives it whole) and dropped before it is scanned.
  for (auto& note : change::skip_oversized_files(sources, settings.max_file_bytes, "kernels.max_file_kib"))
    sources.diff.notes.push_back(std::move(note));
  for (auto& note : sources.notes) sources.diff.notes.push_back(std::move(note));
  auto llm = use_llm_forecaster(invocation, *config);
  if (!llm) return std::unexpected(llm.error());
  std::optional<llm::PromptSet> prompts;
  if (*llm) {
    if (auto checked = forecasters::check_llm_settings(*config, context.env, real_llm_world(*config, context.env)); !checked) return std::unexpected(checked.error());
    auto loaded = forecasters::configured_prompts(*config, repo, invocation.has("--diff") ? "" : base);
    if (!loaded) return std::unexpected(loaded.error());
    prompts = std::move(*loaded);
  }
  // Git is not needed past this point (`repo` is not used again; the prompt overrides above were
  // its last reader): its long-lived cat-file is ended, and waited for, beside the scan rather
  // than at the end.
  // NOLINTNEXTLINE(bugprone-unused-local-non-trivial-variable): its destructor waits for the close
  auto close_repository = std::async(std::launch::async, [owned = std::move(*repository)]() mutable { owned.reset(); });

  const change::ScannedChange scanned = change::scan_change(sources, *progress);

  RealOutside real(*config, context);
  gate::Outside& outside = real.outside();
  const bool plan = invocation.has("--plan");
  const gate::NoBench no_bench{invocation.has("--no-bench")};
  auto gate_result = gate::run_gate({base, change->head.empty() ? "index" : change->head,
                                     fmt::format("revisions: {}", change->origin), scanned.base, scanned.head,
                                     scanned.analysis, std::move(prompts), sources.diff.notes,
                                     git::change_author(context.env), no_bench},
                                    settings, outside, plan ? gate::GateStop::after_policy : gate::GateStop::after_measuring);
  if (!gate_result) return std::unexpected(gate_result.error());
  // --plan stops after the policy: the GPU jobs measure from the plan, and `report --merge` finishes the report.
  if (plan)
    return plan::write_plan(gate_result->run, gate_result->to_measure,
                      {scanned.base, scanned.head, settings.ledger, no_bench}, *config,
                      invocation.value("--plan"), context.env, context.err);
  progress->stage("writing the report");
  progress->finish();
  return deliver_report(gate::build_report(gate_result->run), *config, invocation, context);
}

}  // namespace kforecast::cli
