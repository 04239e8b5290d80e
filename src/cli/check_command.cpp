// SPDX-License-Identifier: Apache-2.0
// `kforecast check FILE[:KERNEL] [--against REV | --vs FILE[:KERNEL]] [--bench]`: a spot-check of
// one kernel (or every kernel of FILE) in the work tree against an earlier revision or another
// file, through the stages of `kforecast pr` (cli/change_review.hpp): the identical-machine-code
// tier, the forecast, the policy, and with --bench the measurement on the local GPU
// (cli/pr_bench.hpp). Unlike pr, a kernel that did not change is reported too: that is an answer
// the user asked for.

#include <algorithm>

#include <fmt/format.h>

#include "base/nearest_name.hpp"
#include "gate/check_sources.hpp"
#include "cli/gate_outside.hpp"
#include "cli/handlers.hpp"
#include "gate/llm_settings.hpp"
#include "gate/pr_bench.hpp"
#include "gate/run_gate.hpp"
#include "report/check_text.hpp"
#include "report/writer.hpp"

namespace kforecast::cli {
namespace {

using kernels::ChangedKernel;
using kernels::KernelSite;

std::vector<KernelSite> kernels_of(const kernels::RevisionSources& sources, const std::string& path) {
  std::vector<KernelSite> sites;
  const auto& functions = sources.scanned(path).functions;
  for (std::size_t i = 0; i < functions.size(); ++i)
    if (functions[i].kind == kernels::FunctionKind::global && functions[i].has_body)
      sites.push_back({path, functions[i].qualified_name, functions[i].whole.first_line, i});
  return sites;
}

// A site whose qualified or plain name is `name` (a template's arguments ignored).
const KernelSite* find_site(const std::vector<KernelSite>& sites, std::string_view name) {
  name = name.substr(0, name.find('<'));
  for (const auto& site : sites) {
    const auto scope = site.qualified_name.rfind("::");
    const std::string_view plain =
        scope == std::string::npos ? site.qualified_name : std::string_view(site.qualified_name).substr(scope + 2);
    if (site.qualified_name == name || plain == name) return &site;
  }
  return nullptr;
}

std::string not_found(const std::vector<KernelSite>& sites, std::string_view name, std::string_view where) {
  std::vector<std::string_view> names;
  for (const auto& site : sites) names.push_back(site.qualified_name);
  return fmt::format("{}: no __global__ kernel '{}'{}", where, name, did_you_mean(name, names));
}

// The pairs to check: the named kernel, or every kernel of the file (those only in the head are
// added, those only in the base removed). A kernel that did not change is kept, with a reason
// that says so, so the identical-code tier settles it.
Result<kernels::ChangeAnalysis> pairs_to_check(const kernels::RevisionSources& base,
                                               const kernels::RevisionSources& head, const gate::CheckSources& sources,
                                               const gate::CheckTarget& target, const std::string& against) {
  const auto head_sites = kernels_of(head, sources.head_path);
  const auto base_sites = kernels_of(base, sources.base_path);
  const std::string base_where =
      against.empty() ? sources.base_label : fmt::format("{} at {}", sources.base_path, against);
  const auto pair = [&](const KernelSite& head_site, const KernelSite& base_site) {
    auto reasons = kernels::kernel_change_reasons(base, base_site, head, head_site);
    if (reasons.empty()) reasons.push_back(fmt::format("no source change from {}", base_where));
    return ChangedKernel{kernels::KernelChange::modified, base_site, head_site, std::move(reasons)};
  };
  kernels::ChangeAnalysis analysis;
  if (!target.kernel.empty()) {
    const KernelSite* head_site = find_site(head_sites, target.kernel);
    if (head_site == nullptr) return usage_error(not_found(head_sites, target.kernel, target.file));
    const std::string base_name = sources.base_kernel.empty() ? head_site->qualified_name : sources.base_kernel;
    const KernelSite* base_site = find_site(base_sites, base_name);
    if (base_site == nullptr && !sources.base_kernel.empty())
      return usage_error(not_found(base_sites, base_name, sources.base_label));
    if (base_site == nullptr)
      return usage_error(fmt::format(
          "kernel '{}' is not in {}: a new kernel, so there is nothing to compare with; name its older version "
          "with --vs OLD_FILE:KERNEL",
          base_name, base_where));
    analysis.kernels.push_back(pair(*head_site, *base_site));
    return analysis;
  }
  if (!sources.base_kernel.empty())
    return usage_error(fmt::format("--vs {}:{} names one kernel: name the one to check too, as {}:KERNEL",
                                   sources.base_label, sources.base_kernel, target.file));
  if (head_sites.empty() && base_sites.empty())
    return usage_error(fmt::format("{}: no __global__ kernel to check", target.file));
  for (const auto& head_site : head_sites) {
    if (const KernelSite* base_site = find_site(base_sites, head_site.qualified_name))
      analysis.kernels.push_back(pair(head_site, *base_site));
    else
      analysis.kernels.push_back({kernels::KernelChange::added, std::nullopt, head_site, {}});
  }
  for (const auto& base_site : base_sites)
    if (find_site(head_sites, base_site.qualified_name) == nullptr)
      analysis.kernels.push_back({kernels::KernelChange::removed, base_site, std::nullopt, {}});
  return analysis;
}

Result<llm::PromptSet> check_prompts(const config::Config& config, const gate::CheckSources& sources) {
  if (sources.repository) return gate::configured_prompts(config, *sources.repository, "");
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
  const std::string format = invocation.has("--format") ? invocation.value("--format") : "text";
  if (format != "text" && format != "json")
    return usage_error(fmt::format("--format {}: expected text or json", format));
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  auto llm = use_llm_forecaster(invocation, *config);
  if (!llm) return std::unexpected(llm.error());
  const bool bench = invocation.has("--bench");
  // Said before any work: --bench is a request to measure, and it cannot be honoured here.
  if (bench)
    if (auto why = gate::no_gpu_reason(*config))
      return fail(ExitCode::could_not_run,
                  fmt::format("--bench needs a GPU to measure on: {}; run without --bench for the forecast alone, or "
                              "on a machine with an NVIDIA GPU and its driver",
                              *why));

  auto target = gate::parse_check_target(invocation.positional.front());
  if (!target) return std::unexpected(target.error());
  const std::string against = invocation.has("--vs")        ? ""
                              : invocation.has("--against") ? invocation.value("--against")
                                                            : "HEAD";
  auto sources = gate::read_check_sources({*target, against, invocation.value("--vs")});
  if (!sources) return std::unexpected(sources.error());
  std::optional<llm::PromptSet> prompts;
  if (*llm) {
    if (auto checked = gate::check_llm_settings(*config, context.env); !checked) return std::unexpected(checked.error());
    auto loaded = check_prompts(*config, *sources);
    if (!loaded) return std::unexpected(loaded.error());
    prompts = std::move(*loaded);
  }

  const kernels::RevisionSources base(sources->base_files);
  const kernels::RevisionSources head(sources->head_files);
  auto analysis = pairs_to_check(base, head, *sources, *target, against);
  if (!analysis) return std::unexpected(analysis.error());

  const gate::Settings settings = gate::read_settings(*config, sources->root);
  gate::Outside outside = real_outside(*config, context);
  auto result = gate::run_gate(
      {sources->base_label, sources->head_label, fmt::format("compared: {}", sources->origin), base, head, *analysis,
       std::move(prompts), {}, git::change_author(context.env),
       {!bench, "check measures only with --bench: add it to measure on this machine's GPU", "--bench not given"},
       true, bench},
      settings, outside);
  if (!result) return std::unexpected(result.error());
  const report::Report report = gate::build_report(result->run);
  if (format == "json")
    report::make_json_writer(context.out)->write(report);
  else
    report::write_check_text(context.out, report);
  return report.verdict == report::GateVerdict::fail ? ExitCode::gate_failed : ExitCode::pass;
}

}  // namespace kforecast::cli
