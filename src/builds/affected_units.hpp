// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which translation units to compile so that every changed kernel's instantiations are built: a
// kernel defined in a .cu is built by that unit; a kernel in a header is built by the units that
// include it, directly or not (templates are often instantiated only in separate instance files,
// so the reverse include graph decides, not the changed file's own name). A shared header can
// reach a hundred units at seconds each, so they come in priority order and the caller caps them.
//
// Units are also built where the scanner saw no kernel change but the diff changed what a unit
// compiles: a change at a launch site (a tile constant that is a template argument), a device
// lambda handed to a library's kernel, code the scanner cannot read. Comparing their machine
// code closes the scanner's gaps. Such units come after those of the reported kernels: a .cu
// whose own text changed and that defines no reported kernel, then, for each changed header no
// unit above reaches, the one unit nearest to it. Files changed only in comments or whitespace
// make no gap units.

#include <cstddef>
#include <string>
#include <vector>

#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::builds {

struct AffectedUnit {
  std::string path;                    // the .cu, present at both revisions
  std::vector<std::size_t> kernels;    // indices of the changed kernels it may build; empty: built for the gaps
  std::size_t distance = 0;            // 0: the kernel's (or changed) file; 1: includes it directly; ...
};

// The units of both revisions that reach the files of the changed kernels present at both, each
// once, nearest first (then by how many of the changed kernels they reach, then by path); then
// the units built for the scanner's gaps, as above.
std::vector<AffectedUnit> affected_units(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                         const std::vector<kernel_changes::ChangedKernel>& changed);

}  // namespace kforecast::builds
