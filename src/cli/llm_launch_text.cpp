// SPDX-License-Identifier: Apache-2.0
#include "cli/llm_launch_text.hpp"

#include <optional>

#include <fmt/format.h>

#include "bench/kernel_source.hpp"
#include "bench/launch_description.hpp"
#include "bench/launch_spec_reader.hpp"

namespace kforecast::cli {
namespace {

const kernels::Function& function_at(const kernels::RevisionSources& sources, const kernels::KernelSite& site) {
  return sources.scanned(site.file).functions.at(site.function_index);
}

struct FoundSpec {
  bench::LaunchSpec spec;
  std::string where;
};

// The `// kforecast:` block above the kernel at one revision. A block that cannot be read is a
// note (it names the file and line) and no spec.
std::optional<FoundSpec> comment_spec(const kernels::RevisionSources& sources, const kernels::KernelSite& site,
                                      std::string_view side, std::vector<std::string>& notes) {
  const auto& function = function_at(sources, site);
  auto spec = bench::read_comment_spec(sources.files().at(site.file), function.signature.first_line,
                                       site.qualified_name, site.file);
  if (!spec) {
    notes.push_back(fmt::format("the {} launch spec was left out of the LLM prompt: {}", side, spec.error().message));
    return std::nullopt;
  }
  if (!*spec) return std::nullopt;
  return FoundSpec{std::move(**spec), fmt::format("the {} comment block", side)};
}

// The candidate's parameters as a launch binds them. A template kernel's type parameters are
// replaced by the spec's instantiation (or the first explicit one), as `kforecast bench` does;
// where that cannot be done the parameters stay as written and a buffer needs a `type`.
std::vector<kernels::Parameter> candidate_parameters(const kernels::RevisionSources& head,
                                                     const kernels::KernelSite& site, const bench::LaunchSpec& spec) {
  const auto& function = function_at(head, site);
  if (function.template_parameters.empty()) return function.parameters;
  const std::string name = spec.name.find('<') != std::string::npos ? spec.name : site.qualified_name;
  auto prepared = bench::prepare_kernel({site.file, site.file, head.files().at(site.file)}, name,
                                        [](std::string_view) { return false; });
  return prepared ? prepared->function.parameters : function.parameters;
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

KernelLaunchText kernel_launch_text(const kernels::RevisionSources& base, const kernels::KernelSite& base_site,
                                    const kernels::RevisionSources& head, const kernels::KernelSite& head_site,
                                    const std::vector<bench::LaunchSpec>& config_specs) {
  KernelLaunchText result;
  std::optional<FoundSpec> found = comment_spec(head, head_site, "candidate's", result.notes);
  if (!found) found = comment_spec(base, base_site, "reference's", result.notes);
  if (!found)
    if (const auto* spec = bench::find_spec(config_specs, head_site.qualified_name, head_site.file))
      found = FoundSpec{*spec, "a [[kernel]] table of the config"};
  if (!found) return result;
  auto description =
      bench::describe_launch(found->spec, candidate_parameters(head, head_site, found->spec), found->where);
  result.text = std::move(description.text);
  for (auto& problem : description.problems)
    result.notes.push_back(fmt::format("LLM prompt: {} (that size is shown unevaluated)", problem));
  return result;
}

}  // namespace kforecast::cli
