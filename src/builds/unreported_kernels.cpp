// SPDX-License-Identifier: Apache-2.0
#include "builds/unreported_kernels.hpp"

#include <optional>

#include <fmt/format.h>

namespace kforecast::builds {
namespace {

// The definition of the kernel named `name` among the files `unit` reaches, nearest first.
std::optional<kernel_changes::KernelSite> find_kernel(const kernels::RevisionSources& sources, const std::string& unit,
                                               const std::string& name) {
  for (const auto& file : sources.closure(unit)) {
    const auto& functions = sources.scanned(file).functions;
    for (std::size_t i = 0; i < functions.size(); ++i) {
      const auto& function = functions[i];
      if (function.kind == kernels::FunctionKind::global && function.has_body &&
          comparable_kernel_name(function.qualified_name) == name)
        return kernel_changes::KernelSite{file, function.qualified_name, function.whole.first_line, i};
    }
  }
  return std::nullopt;
}

std::string listed(const std::vector<std::string>& instances) {
  constexpr std::size_t shown = 3;
  if (instances.size() <= shown) return fmt::format("{}", fmt::join(instances, "; "));
  return fmt::format("{}; and {} more", fmt::join(instances.begin(), instances.begin() + shown, "; "),
                     instances.size() - shown);
}

}  // namespace

FoundKernels kernels_from_machine_code(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                       const std::vector<UnreportedChange>& changes) {
  FoundKernels found;
  for (const auto& change : changes) {
    // An instantiation built at one revision only is a launch added or dropped: nothing to compare.
    if (!change.comparable) {
      found.notes.push_back(fmt::format("machine code of {}, which the source scan did not report: {} (nothing to compare "
                                        "it with)",
                                        change.kernel, fmt::format("{}: {}", change.unit, change.difference)));
      continue;
    }
    auto base_site = find_kernel(base, change.unit, change.kernel);
    auto head_site = find_kernel(head, change.unit, change.kernel);
    const std::string what = fmt::format("{}: {} (instantiations that differ: {})", change.unit, change.difference,
                                         listed(change.instances));
    if (!base_site || !head_site) {
      found.notes.push_back(
          fmt::format("machine code changed in kernel {}, which the source scan did not report and whose definition "
                      "is not in the repository at both revisions: {}",
                      change.kernel, what));
      continue;
    }
    kernel_changes::ChangedKernel kernel;
    kernel.base = std::move(base_site);
    kernel.head = std::move(head_site);
    kernel.reasons = {std::string(machine_code_reason)};
    KernelCodeVerdict verdict;
    verdict.outcome = policy::CodeComparison::different;
    verdict.names = change.instances;
    verdict.note = what;
    verdict.compiled_by = change.compiled_by;
    verdict.units = {change.unit};
    verdict.build_arguments = change.build_arguments;
    found.kernels.push_back(std::move(kernel));
    found.verdicts.push_back(std::move(verdict));
  }
  return found;
}

bool found_by_machine_code(const kernel_changes::ChangedKernel& kernel) {
  return !kernel.reasons.empty() && kernel.reasons.front() == machine_code_reason;
}

}  // namespace kforecast::builds
