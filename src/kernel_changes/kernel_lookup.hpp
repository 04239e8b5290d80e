// SPDX-License-Identifier: Apache-2.0
#pragma once

// Finding a revision's kernels by how other code names them, and recording a change found
// outside a kernel's own code (its launch, a generated file that instantiates it) in the
// analysis: the steps of find_changed_kernels after the kernels' code is compared share these.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"
#include "kernels/scanner.hpp"

namespace kforecast::kernel_changes {

// A __global__ function with a body: a kernel the scan can compare.
bool is_kernel(const kernels::Function& function);

// The kernels a launch or an instantiation in `file` names as `written` ("k", "ns::k"): those of
// the file and its headers, else those of any file (a kernel declared in a header, defined
// elsewhere).
std::vector<KernelSite> kernels_named(const kernels::RevisionSources& sources, const std::string& file,
                                      std::string_view written);

// The kernel `qualified_name` of `file`, where the file has one.
std::optional<KernelSite> kernel_in(const kernels::RevisionSources& sources, const std::string& file,
                                    const std::string& qualified_name);

// The reported kernel at `head_site`, or none yet.
ChangedKernel* reported_kernel(ChangeAnalysis& analysis, const KernelSite& head_site);

// Reports `kernel` (a kernel at both revisions, not reported yet) before the removed kernels,
// which come last. It is no longer a comment-only or formatting-only kernel.
void report_modified(ChangeAnalysis& analysis, ChangedKernel kernel);

}  // namespace kforecast::kernel_changes
