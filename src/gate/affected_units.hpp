// SPDX-License-Identifier: Apache-2.0
#pragma once

// Which translation units to compile so that every changed kernel's instantiations are built: a
// kernel defined in a .cu is built by that unit; a kernel in a header is built by the units that
// include it, directly or not (templates are often instantiated only in separate instance files,
// so the reverse include graph decides, not the changed file's own name). A shared header can
// reach a hundred units at seconds each, so they come in priority order and the caller caps them.

#include <cstddef>
#include <string>
#include <vector>

#include "kernels/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::gate {

struct AffectedUnit {
  std::string path;                    // the .cu, present at both revisions
  std::vector<std::size_t> kernels;    // indices of the changed kernels it may build
  std::size_t distance = 0;            // 0: the kernel's own file; 1: includes it directly; ...
};

// The units of both revisions that reach the files of the changed kernels present at both, each
// once, nearest first (then by how many of the changed kernels they reach, then by path).
std::vector<AffectedUnit> affected_units(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                         const std::vector<kernels::ChangedKernel>& changed);

}  // namespace kforecast::gate
