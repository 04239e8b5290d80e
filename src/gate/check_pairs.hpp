// SPDX-License-Identifier: Apache-2.0
#pragma once

// What `kforecast check` compares: the named kernel against its version on the other side (the
// same file at a revision, or another file), or every kernel of the file. Unlike pr, a kernel
// that did not change is kept, with a reason that says so: that is an answer the user asked for.

#include <string>

#include "base/error.hpp"
#include "gate/check_sources.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::gate {

// The pairs to check: the named kernel, or every kernel of the file (those only in the head are
// added, those only in the base removed). `against`: the revision compared with, "" for --vs.
// A name that matches no kernel is a usage error with the nearest names.
Result<kernel_changes::ChangeAnalysis> pairs_to_check(const kernels::RevisionSources& base,
                                                      const kernels::RevisionSources& head, const CheckSources& sources,
                                                      const CheckTarget& target, const std::string& against);

}  // namespace kforecast::gate
