// SPDX-License-Identifier: Apache-2.0
#pragma once

// Kernels whose launch changed. A kernel launched with a new configuration (grid, block, shared
// memory, stream, template arguments) in a touched file runs differently though its code is the
// same: it changed, and a kernel already changed gets the reason too. So does one whose launch
// reads the same but names a constant, a macro or a local whose definition changed
// (launch_inputs.hpp), in the launching file or a header it includes. Added kernels have no
// configuration to compare.

#include <map>
#include <set>
#include <string>

#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::kernel_changes {

// Adds to `analysis` what the launches in the files whose closure `touched` meets changed.
// `to_head_path` maps a renamed file's base path to its head path.
void add_launch_changes(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                        const std::map<std::string, std::string>& to_head_path,
                        const std::set<std::string, std::less<>>& touched, ChangeAnalysis& analysis);

}  // namespace kforecast::kernel_changes
