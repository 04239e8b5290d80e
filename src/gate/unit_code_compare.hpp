// SPDX-License-Identifier: Apache-2.0
#pragma once

// The identical-code verdicts from units the project's compiler built at both revisions
// (gate/unit_builds.hpp): each changed kernel's instantiations in every unit that built them,
// paired by symbol and compared by everything that decides how they run (cubin/kernel_difference.hpp).
// The compiled view also closes the scanner's gaps: a kernel whose machine code changed where
// the scanner reported no change is named.

#include <string>
#include <vector>

#include "gate/identical_code_step.hpp"
#include "gate/unit_builds.hpp"
#include "kernels/changed_kernels.hpp"

namespace kforecast::gate {

struct UnitCodeVerdicts {
  // One per changed kernel; outcome nullopt where no built unit settled it (note says why).
  std::vector<KernelCodeVerdict> kernels;
  // "void sgemm<64>(float*) in src/runner.cu: code differs (824 → 776 instructions)": machine code
  // that changed in kernels the scanner did not report.
  std::vector<std::string> unreported;
};

// `base_files`: the base revision's files, where given: a header the head can no longer find that
// the base had (renamed or deleted, its includer not updated) is a real break, not missing context.
UnitCodeVerdicts compare_unit_builds(const UnitBuilds& builds, const std::vector<kernels::ChangedKernel>& changed,
                                     const std::string& arch, const kernels::SourceFiles* base_files = nullptr);

// A kernel's name as the scanner and the demangler both can give it: "(anonymous namespace)::"
// and a leading "::" left out.
std::string comparable_kernel_name(std::string_view name);

}  // namespace kforecast::gate
