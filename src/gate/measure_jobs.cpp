// SPDX-License-Identifier: Apache-2.0
#include "gate/measure_jobs.hpp"

#include <algorithm>
#include <map>

namespace kforecast::gate {
namespace {

// One revision's texts as the jobs hold them: each file copied once, however many kernels it has.
using SharedFiles = std::map<std::string, SharedText, std::less<>>;

// The name to measure a kernel by: its own, or for a template its file instantiates nowhere (a
// header's, launched by a runner), the instantiation the project's build made (`instance`).
std::string measured_name(const kernels::RevisionSources& sources, const kernel_changes::KernelSite& site,
                          const std::string& instance) {
  if (instance.empty() || instance.find('<') == std::string::npos || !sources.files().contains(site.file))
    return site.qualified_name;
  for (const auto& function : sources.scanned(site.file).functions)
    if (function.qualified_name == site.qualified_name && !function.template_parameters.empty()) {
      const bool own = std::ranges::any_of(function.instantiations,
                                           [](const std::string& text) { return text.find('<') != std::string::npos; });
      return own ? site.qualified_name : instance;
    }
  return site.qualified_name;
}

MeasureSide side_of(const kernels::RevisionSources& sources, const kernel_changes::KernelSite& site, SharedFiles& shared,
                    const std::string& instance) {
  MeasureSide side{site.file, measured_name(sources, site, instance), {}};
  for (const auto& file : sources.closure(site.file)) {
    const auto found = sources.files().find(file);
    if (found == sources.files().end()) continue;
    auto text = shared.find(file);
    if (text == shared.end()) text = shared.emplace(file, found->second).first;
    side.files.emplace_back(file, text->second);
  }
  return side;
}

}  // namespace

std::vector<MeasureJob> measure_jobs(std::span<const std::size_t> to_measure, const kernels::RevisionSources& base,
                                     const kernels::RevisionSources& head, std::span<const KernelCase> cases) {
  std::vector<MeasureJob> jobs;
  SharedFiles base_files, head_files;
  for (const std::size_t index : to_measure) {
    const auto& kernel = cases[index].kernel;
    MeasureJob job{index, kernel.base && kernel.head, {}, {}};
    if (job.complete)
      job.base = side_of(base, *kernel.base, base_files, cases[index].instances.base),
      job.head = side_of(head, *kernel.head, head_files, cases[index].instances.head);
    if (job.complete && job.head.kernel == cases[index].instances.head && job.head.kernel != kernel.head->qualified_name)
      job.other_instances = cases[index].instances.others;
    if (job.complete && cases[index].build_arguments) {
      job.base.build_arguments = cases[index].build_arguments->base;
      job.head.build_arguments = cases[index].build_arguments->head;
    }
    jobs.push_back(std::move(job));
  }
  return jobs;
}

}  // namespace kforecast::gate
