// SPDX-License-Identifier: Apache-2.0
#pragma once

// The identical-code tier, both compilers: where the project's compiler (nvcc) is installed, the
// units a change affects are built as the project builds them, at both revisions, and compared
// per symbol (builds/unit_builds.hpp, builds/unit_code_compare.hpp); NVRTC compares device-only units
// (builds/identical_code_step.hpp) for the kernels nvcc did not settle, and everywhere where nvcc is
// absent.

#include <string>
#include <vector>

#include "base/console.hpp"
#include "base/run_deadline.hpp"
#include "builds/compilers.hpp"
#include "builds/identical_code_step.hpp"
#include "builds/unit_cache.hpp"
#include "builds/unit_context.hpp"
#include "builds/unreported_kernels.hpp"
#include "config/config.hpp"
#include "kernel_changes/changed_kernels.hpp"
#include "kernels/revision_sources.hpp"
#include "policy/ptx_cache.hpp"

namespace kforecast::builds {

struct MachineCodeVerdicts {
  std::vector<KernelCodeVerdict> kernels;  // one per changed kernel; empty where no compiler could run
  std::vector<std::string> notes;          // for the run: compilers used, units skipped, unreported changes
  std::string no_compiler;                 // why machine code was not compared at all, or ""
  // Units built for the scanner's gaps that could not be compared, as "UNIT: why"
  // (builds/unit_code_compare.hpp): the run warns of them.
  std::vector<std::string> uncompared_gap_units;
  // Changed kernels (indices) whose units cannot be compiled as the project builds them on this
  // machine, and why, with what to do ("PyTorch's headers not found (...): ..."): the run says it
  // once, first, rather than a compiler error per kernel.
  std::vector<std::size_t> blocked_kernels;
  std::string blocked_reason;
  // Kernels the scanner did not report whose machine code changed (builds/unreported_kernels.hpp),
  // with their verdicts: the caller adds them to the changed kernels.
  FoundKernels found;
};

// What the tier reads beside the two revisions, all handed in by the caller.
struct MachineCodeSetup {
  std::string arch;                   // the target: sm_90
  const cuda::LoadedCompiler& nvrtc;  // NVRTC, loaded once by the caller, or why there is none
  const LoadedUnitCompiler* nvcc;     // the project's compiler of whole units; nullptr: none here
  const CompileSettings& compile;
  const config::Config& config;       // compile.* and [[compile.paths]], for the units' contexts
  std::string cuda_include_dir;       // CUDA's own headers, for NVRTC
  const UnitCache* unit_cache = nullptr;        // nullptr: none kept
  const policy::PtxCache* ptx_cache = nullptr;  // nullptr: none kept
  const Console& console;             // progress, and the unit cache's counts on a terminal
  const RunDeadline& deadline;        // the run's: the compile budget never outlasts it
  bool reads_confined = false;        // Landlock confines the compilers' file reads
};

// Compares the changed kernels' machine code at both revisions (nvcc where the setup has it, NVRTC
// for what nvcc did not settle).
MachineCodeVerdicts compare_machine_code(const kernels::RevisionSources& base, const kernels::RevisionSources& head,
                                         const std::vector<kernel_changes::ChangedKernel>& changed,
                                         const MachineCodeSetup& setup);

}  // namespace kforecast::builds
