// SPDX-License-Identifier: Apache-2.0
#pragma once

// The compiled view closing the scanner's gaps: a kernel whose machine code changed where the
// source scan reported no change (a tile constant at its launch site, a lambda it runs, code the
// scanner cannot read) becomes a changed kernel of the report, found by name in the unit's files
// at both revisions. Its source may read the same at both, so the forecasters, which read source,
// cannot judge it: it is not forecast, and goes to a GPU measurement.

#include <string>
#include <vector>

#include "builds/identical_code_step.hpp"
#include "builds/unit_code_compare.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::builds {

// The reason every such kernel's entry carries first; a kernel with it is not forecast.
inline constexpr std::string_view machine_code_reason = "machine code changed where the source scan saw no change";

struct FoundKernels {
  std::vector<kernel_changes::ChangedKernel> kernels;
  std::vector<KernelCodeVerdict> verdicts;  // verdicts[i] for kernels[i]
  // A change whose kernel has no definition in the repository at both revisions (a library's
  // kernel): said for the run.
  std::vector<std::string> notes;
};

FoundKernels kernels_from_machine_code(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                       const std::vector<UnreportedChange>& changes);

// Whether the scanner's view of `kernel` came from the compiled view alone.
bool found_by_machine_code(const kernel_changes::ChangedKernel& kernel);

}  // namespace kforecast::builds
