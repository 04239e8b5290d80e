// SPDX-License-Identifier: Apache-2.0
#pragma once

// The identical-code tier, both compilers: where the project's compiler (nvcc) is installed, the
// units a change affects are built as the project builds them, at both revisions, and compared
// per symbol (gate/unit_builds.hpp, gate/unit_code_compare.hpp); NVRTC compares device-only units
// (gate/identical_code_step.hpp) for the kernels nvcc did not settle, and everywhere where nvcc is
// absent.

#include <string>
#include <vector>

#include "gate/identical_code_step.hpp"
#include "gate/outside.hpp"
#include "gate/settings.hpp"
#include "gate/unreported_kernels.hpp"
#include "kernels/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::gate {

struct MachineCodeVerdicts {
  std::vector<KernelCodeVerdict> kernels;  // one per changed kernel; empty where no compiler could run
  std::vector<std::string> notes;          // for the run: compilers used, units skipped, unreported changes
  std::string no_compiler;                 // why machine code was not compared at all, or ""
  // Units built for the scanner's gaps that could not be compared, as "UNIT: why"
  // (gate/unit_code_compare.hpp): the run warns of them.
  std::vector<std::string> uncompared_gap_units;
  // Kernels the scanner did not report whose machine code changed (gate/unreported_kernels.hpp),
  // with their verdicts: the caller adds them to the changed kernels.
  FoundKernels found;
};

struct MachineCodeInputs {
  const std::string& arch;
  const cuda::LoadedCompiler& nvrtc;  // Outside::compiler()'s answer, loaded once by the caller
  const Settings& settings;
};

MachineCodeVerdicts compare_machine_code(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                         const std::vector<kernels::ChangedKernel>& changed,
                                         const MachineCodeInputs& inputs, Outside& outside);

}  // namespace kforecast::gate
