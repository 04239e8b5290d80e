// SPDX-License-Identifier: Apache-2.0
#include "cli/check_gate.hpp"

#include <fmt/format.h>

#include "cli/command_progress.hpp"
#include "cli/gate_outside.hpp"
#include "cli/handlers.hpp"
#include "cli/real_world.hpp"
#include "forecasters/llm_settings.hpp"
#include "gate/check_pairs.hpp"
#include "gate/check_sources.hpp"
#include "gate/run_gate.hpp"
#include "git/change_author.hpp"
#include "git/repository.hpp"

namespace kforecast::cli {
namespace {

Result<llm::PromptSet> check_prompts(const config::Config& config, const gate::CheckSources& sources) {
  if (sources.repository) return forecasters::configured_prompts(config, *sources.repository, "");
  const std::string directory = config.string_value("forecast.prompts");
  if (directory.empty()) return llm::builtin_prompts();
  return llm::load_prompts(sources.root / directory);
}

}  // namespace

Result<report::Report> run_check_gate(const CheckGateRequest& request, const config::Config& config,
                                      const Invocation& invocation, Context& context) {
  auto llm = use_llm_forecaster(invocation, config);
  if (!llm) return std::unexpected(llm.error());
  auto target = gate::parse_check_target(request.target);
  if (!target) return std::unexpected(target.error());
  auto sources = gate::read_check_sources({*target, request.against, request.versus,
                                           [](const std::filesystem::path& folder) { return git::open_repository(folder); }});
  if (!sources) return std::unexpected(sources.error());
  std::optional<llm::PromptSet> prompts;
  if (*llm) {
    if (auto checked = forecasters::check_llm_settings(config, context.env, real_llm_world(config, context.env)); !checked)
      return std::unexpected(checked.error());
    auto loaded = check_prompts(config, *sources);
    if (!loaded) return std::unexpected(loaded.error());
    prompts = std::move(*loaded);
  }

  const kernels::RevisionSources base(sources->base_files);
  const kernels::RevisionSources head(sources->head_files);
  auto analysis = gate::pairs_to_check(base, head, *sources, *target, request.against);
  if (!analysis) return std::unexpected(analysis.error());

  CommandProgress progress(invocation, context);
  const gate::Settings settings = gate::read_settings(config, sources->root);
  RealOutside real(config, context);
  gate::Outside& outside = real.outside();
  gate::GateInputs inputs{sources->base_label,
                          sources->head_label,
                          fmt::format("compared: {}", sources->origin),
                          base,
                          head,
                          *analysis,
                          std::move(prompts),
                          {},
                          git::change_author(context.env),
                          request.no_bench,
                          true,
                          request.measure_trusted};
  inputs.observe = request.observe;
  auto result = gate::run_gate(std::move(inputs), settings, outside);
  progress->finish();
  if (!result) return std::unexpected(result.error());
  return gate::build_report(result->run);
}

}  // namespace kforecast::cli
