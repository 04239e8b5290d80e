// SPDX-License-Identifier: Apache-2.0
#pragma once

// What kept kernels from being compiled, said once on the report's first line rather than as a
// compiler error per kernel: the units that include PyTorch's headers where none are installed,
// and a header that the compiler could not find for many kernels (a submodule not checked out, a
// library's headers missing). Each says what to do.

#include <ostream>

#include "builds/machine_code_tier.hpp"
#include "gate/kernel_case.hpp"

namespace kforecast::gate {

// Adds the run warnings for `code` to `run` and says each on `err`.
void warn_of_uncompiled_kernels(GateRun& run, const builds::MachineCodeVerdicts& code, std::ostream& err);

}  // namespace kforecast::gate
