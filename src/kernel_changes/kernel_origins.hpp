// SPDX-License-Identifier: Apache-2.0
#pragma once

// Kernels a macro writes or a generator instantiates (ChangedKernel::produced_by). A changed
// generated file (generated_units.hpp) changes the kernels it instantiates, though no kernel's
// text changed: the generator added, removed or rewrote an instantiation. For such kernels only
// compiling the units that expand or instantiate them settles whether their code changed, and
// each one's last reason says so.

#include <map>
#include <set>
#include <string>

#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::kernel_changes {

// Adds to `analysis` the kernels that the generated files among `touched` instantiate, with the
// reason "instantiated by generated file F (added|removed|changed)". `to_head_path` maps a
// renamed file's base path to its head path.
void add_generated_changes(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                           const std::map<std::string, std::string>& to_head_path,
                           const std::set<std::string, std::less<>>& touched, ChangeAnalysis& analysis);

// Names what writes each kernel of `analysis` where a macro or a generator does, and adds the
// reason that says what settles its code.
void note_origins(const kernels::RevisionSources& base, const kernels::RevisionSources& head, ChangeAnalysis& analysis);

}  // namespace kforecast::kernel_changes
