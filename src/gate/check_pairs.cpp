// SPDX-License-Identifier: Apache-2.0
#include "gate/check_pairs.hpp"

#include <fmt/format.h>

#include "base/nearest_name.hpp"

namespace kforecast::gate {
namespace {

using kernel_changes::ChangedKernel;
using kernel_changes::KernelSite;

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

}  // namespace

Result<kernel_changes::ChangeAnalysis> pairs_to_check(const kernels::RevisionSources& base,
                                                      const kernels::RevisionSources& head, const CheckSources& sources,
                                                      const CheckTarget& target, const std::string& against) {
  const auto head_sites = kernels_of(head, sources.head_path);
  const auto base_sites = kernels_of(base, sources.base_path);
  const std::string base_where =
      against.empty() ? sources.base_label : fmt::format("{} at {}", sources.base_path, against);
  const auto pair = [&](const KernelSite& head_site, const KernelSite& base_site) {
    auto reasons = kernel_changes::kernel_change_reasons(base, base_site, head, head_site);
    if (reasons.empty()) reasons.push_back(fmt::format("no source change from {}", base_where));
    return ChangedKernel{kernel_changes::KernelChange::modified, base_site, head_site, std::move(reasons)};
  };
  kernel_changes::ChangeAnalysis analysis;
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
      analysis.kernels.push_back({kernel_changes::KernelChange::added, std::nullopt, head_site, {}});
  }
  for (const auto& base_site : base_sites)
    if (find_site(head_sites, base_site.qualified_name) == nullptr)
      analysis.kernels.push_back({kernel_changes::KernelChange::removed, base_site, std::nullopt, {}});
  return analysis;
}

}  // namespace kforecast::gate
