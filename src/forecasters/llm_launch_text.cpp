// SPDX-License-Identifier: Apache-2.0
#include "forecasters/llm_launch_text.hpp"

#include <optional>

#include <fmt/format.h>

#include "bench/kernel_source.hpp"
#include "bench/launch_description.hpp"
#include "bench/launch_spec_reader.hpp"

namespace kforecast::forecasters {
namespace {

const kernels::Function& function_at(const kernels::RevisionSources& sources, const kernel_changes::KernelSite& site) {
  return sources.scanned(site.file).functions.at(site.function_index);
}

struct FoundSpec {
  bench::LaunchSpec spec;
  std::string where;
};

// One side's own spec, as `kforecast bench` finds it: the `// kforecast:` block above the kernel,
// else a [[kernel]] table of the config naming it. A block that cannot be read is a note (it
// names the file and line) and no spec.
std::optional<FoundSpec> own_spec(const kernels::RevisionSources& sources, const kernel_changes::KernelSite& site,
                                  std::string_view side, const std::vector<bench::LaunchSpec>& config_specs,
                                  std::vector<std::string>& notes) {
  const auto& function = function_at(sources, site);
  auto spec = bench::read_comment_spec(sources.files().at(site.file), function.signature.first_line,
                                       site.qualified_name, site.file);
  if (!spec)
    notes.push_back(fmt::format("the {} launch spec was left out of the LLM prompt: {}", side, spec.error().message));
  else if (*spec)
    return FoundSpec{std::move(**spec), fmt::format("the {} comment block", side)};
  if (const auto* found = bench::find_spec(config_specs, site.qualified_name, site.file))
    return FoundSpec{*found, "a [[kernel]] table of the config"};
  return std::nullopt;
}

// A side's parameters as a launch binds them. A template kernel's type parameters are replaced
// by the spec's instantiation (or the first explicit one), as `kforecast bench` does; where that
// cannot be done the parameters stay as written and a buffer needs a `type`.
std::vector<kernels::Parameter> bound_parameters(const kernels::RevisionSources& sources,
                                                 const kernel_changes::KernelSite& site,
                                                 const bench::LaunchSpec& spec) {
  const auto& function = function_at(sources, site);
  if (function.template_parameters.empty()) return function.parameters;
  const std::string name = spec.name.find('<') != std::string::npos ? spec.name : site.qualified_name;
  auto prepared = bench::prepare_kernel({site.file, site.file, sources.files().at(site.file)}, name,
                                        [](std::string_view) { return false; });
  return prepared ? prepared->function.parameters : function.parameters;
}

bool same_geometry(const bench::LaunchSpec& a, const bench::LaunchSpec& b) {
  return a.name == b.name && a.grid == b.grid && a.block == b.block && a.shared_bytes == b.shared_bytes &&
         a.defines == b.defines;
}

void describe_into(KernelLaunchText& result, const bench::LaunchSpec& spec,
                   const std::vector<kernels::Parameter>& parameters, std::string_view where) {
  auto description = bench::describe_launch(spec, parameters, where);
  result.text += description.text;
  for (auto& problem : description.problems)
    result.notes.push_back(fmt::format("LLM prompt: {} (that size is shown unevaluated)", problem));
}

}  // namespace

ConfigLaunchSpecs config_launch_specs(const config::Config& config) {
  ConfigLaunchSpecs result;
  if (config.source_text().empty()) return result;
  auto specs = bench::read_config_specs(config.source_text(), config.source_name());
  if (specs)
    result.specs = std::move(*specs);
  else
    result.notes.push_back(fmt::format("the config's [[kernel]] launch specs were left out of the LLM prompts: {}",
                                       specs.error().message));
  return result;
}

KernelLaunchText kernel_launch_text(const kernels::RevisionSources& base, const kernel_changes::KernelSite& base_site,
                                    const kernels::RevisionSources& head, const kernel_changes::KernelSite& head_site,
                                    const std::vector<bench::LaunchSpec>& config_specs) {
  KernelLaunchText result;
  auto candidate = own_spec(head, head_site, "candidate's", config_specs, result.notes);
  auto reference = own_spec(base, base_site, "reference's", config_specs, result.notes);
  // As the runner launches the pair: the reference's spec (else the candidate's) gives the sizes
  // and arguments of both; each side keeps its own geometry where it has a spec of its own.
  if (!candidate) candidate = reference;
  if (!candidate) return result;
  const auto& problem = reference ? reference->spec : candidate->spec;
  const auto candidate_spec = bench::with_geometry_of(problem, candidate->spec);
  describe_into(result, candidate_spec, bound_parameters(head, head_site, candidate_spec), candidate->where);
  if (reference && !same_geometry(candidate->spec, reference->spec)) {
    const auto reference_spec = bench::with_geometry_of(problem, reference->spec);
    result.text += "\n\nThe reference launches the same sizes and arguments with its own geometry:\n";
    describe_into(result, reference_spec, bound_parameters(base, base_site, reference_spec), reference->where);
  }
  return result;
}

PairLaunches kernel_launches(const kernels::RevisionSources& base, const kernel_changes::KernelSite& base_site,
                             const kernels::RevisionSources& head, const kernel_changes::KernelSite& head_site,
                             const std::vector<bench::LaunchSpec>& config_specs) {
  std::vector<std::string> ignored;  // the report's notes on a broken spec come from the prompt's lookup
  auto candidate = own_spec(head, head_site, "candidate's", config_specs, ignored);
  auto reference = own_spec(base, base_site, "reference's", config_specs, ignored);
  if (!candidate) candidate = reference;
  if (!candidate) return {};
  const auto& problem = reference ? reference->spec : candidate->spec;
  if (problem.sizes.empty()) return {};
  const auto candidate_spec = bench::with_geometry_of(problem, candidate->spec);
  const auto reference_spec = bench::with_geometry_of(problem, reference ? reference->spec : candidate->spec);
  const auto& size = problem.sizes.front();
  const auto resolve = [&](const bench::LaunchSpec& spec, const kernels::RevisionSources& sources,
                           const kernel_changes::KernelSite& site) -> std::optional<bench::ResolvedLaunch> {
    auto launch = bench::resolve_launch(spec, size, bound_parameters(sources, site, spec));
    return launch ? std::optional(std::move(*launch)) : std::nullopt;
  };
  return {resolve(reference_spec, base, base_site), resolve(candidate_spec, head, head_site)};
}

}  // namespace kforecast::forecasters
