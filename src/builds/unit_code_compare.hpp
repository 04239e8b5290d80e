// SPDX-License-Identifier: Apache-2.0
#pragma once

// The identical-code verdicts from units the project's compiler built at both revisions
// (builds/unit_builds.hpp): each changed kernel's instantiations in every unit that built them,
// paired by symbol and compared by everything that decides how they run (cubin/kernel_difference.hpp).
// The compiled view also closes the scanner's gaps: a kernel whose machine code changed where
// the scanner reported no change is named.

#include <string>
#include <vector>

#include "builds/identical_code_step.hpp"
#include "builds/unit_builds.hpp"
#include "kernel_changes/changed_kernels.hpp"

namespace kforecast::builds {

// Machine code that changed in a kernel the scanner did not report, one per source kernel.
struct UnreportedChange {
  std::string kernel;                  // comparable_kernel_name of its symbols: "sgemm", "ns::k"
  std::vector<std::string> instances;  // the instantiations that differ: "sgemm<64>"
  std::string unit;                    // the first unit that showed it
  std::string difference;              // the first instance's: "code differs (824 → 776 instructions)"
  BuildArguments build_arguments;      // that unit's, to measure what it built
  std::string compiled_by;             // as KernelCodeVerdict::compiled_by
  // Whether some instantiation has a base to compare with: its code changed, or it is built in
  // place of another. One only built at one revision (a launch added or dropped) has none.
  bool comparable = false;
};

struct UnitCodeVerdicts {
  // One per changed kernel; outcome nullopt where no built unit settled it (note says why).
  std::vector<KernelCodeVerdict> kernels;
  std::vector<UnreportedChange> unreported;
  // For the run: units built for the scanner's gaps (no changed kernel of theirs) whose machine
  // code could not be compared, and why.
  std::vector<std::string> notes;
  // The same units as "UNIT: why": a check that could not run, which the run warns of, since a
  // change only machine code shows would pass unseen there.
  std::vector<std::string> uncompared_gap_units;
};

// `base_files`: the base revision's files, where given: a header the head can no longer find that
// the base had (renamed or deleted, its includer not updated) is a real break, not missing context.
// `head`: the head's scan, where given: a head whose first error lies in host code (outside every
// __global__ and __device__ function) is not a kernel's break but, for a merged project, most
// often host code this toolkit rejects (a runtime signature a newer CUDA removed): missing
// context, never a gate failure.
UnitCodeVerdicts compare_unit_builds(const UnitBuilds& builds,
                                     const std::vector<kernel_changes::ChangedKernel>& changed, const std::string& arch,
                                     const kernels::SourceFiles* base_files = nullptr,
                                     const kernels::RevisionSources* head = nullptr);

// A kernel's name as the scanner and the demangler both can give it: "(anonymous namespace)::"
// and a leading "::" left out.
std::string comparable_kernel_name(std::string_view name);

}  // namespace kforecast::builds
